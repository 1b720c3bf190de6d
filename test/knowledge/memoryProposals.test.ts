/**
 * Inbox proposals: a tidy keeps the texts of its entries through the inbox file, reads
 * against the memory as it is now (numbers move, a gone entry is named), applies in place,
 * and refuses when an entry is gone; entry numbers from the model are read loosely.
 */
import { describe, expect, it } from 'vitest';
import { formatMemory, parseMemory, type MemoryEntry } from '../../src/knowledge/memoryFile.js';
import {
  applyTidy,
  describeProposal,
  parseNumbers,
  proposalEntry,
  proposalOf,
  type TidyProposal,
} from '../../src/knowledge/memoryProposals.js';

const fact = (text: string): MemoryEntry => ({ date: '2026-12-01', source: 'user turn', text });
const memory = ['A · one', 'B', 'C'].map(fact);
const merge: TidyProposal = {
  kind: 'tidy',
  date: '2026-12-07',
  source: 'autonomous',
  replaces: ['A · one', 'C'],
  text: 'A and C',
  reason: 'same thing',
};

describe('memory proposals', () => {
  it('a tidy survives the inbox file; a plain line stays an addition', () => {
    const text = formatMemory('inbox', [proposalEntry(merge), fact('tidy is a word')]);
    const back = parseMemory(text).map(proposalOf);
    expect(back[0]).toEqual(merge);
    expect(back[1]).toEqual({ kind: 'add', entry: fact('tidy is a word') });
  });

  it('reads against the memory now: numbers follow the texts, a gone entry is named', () => {
    expect(describeProposal(merge, memory)).toBe('merge 1,3 → A and C (same thing)');
    expect(describeProposal(merge, [memory[2]!, memory[0]!])).toBe(
      'merge 2,1 → A and C (same thing)',
    );
    const drop: TidyProposal = {
      kind: 'tidy',
      date: '',
      source: 'autonomous',
      replaces: ['B'],
      reason: 'stale',
    };
    expect(describeProposal(drop, [memory[0]!])).toBe('drop (gone: "B"): "B" (stale)');
  });

  it('applies a merge in place of the first entry, and refuses when one is gone', () => {
    const out = applyTidy(memory, merge, Date.UTC(2026, 11, 7, 12));
    expect('memory' in out && out.memory.map((e) => e.text)).toEqual(['A and C', 'B']);
    const gone = applyTidy([memory[1]!, memory[2]!], merge, 0);
    expect('problem' in gone && gone.problem).toContain('"A · one" is no longer in the memory');
  });

  it('reads the model’s entry numbers loosely, and nothing else', () => {
    expect(parseNumbers('2,5')).toEqual([2, 5]);
    expect(parseNumbers('[2, 5, 2]')).toEqual([2, 5]);
    expect(parseNumbers('3')).toEqual([3]);
    expect(parseNumbers('two')).toBeUndefined();
    expect(parseNumbers('0')).toBeUndefined();
  });
});
