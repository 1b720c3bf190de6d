import { describe, expect, it } from 'vitest';
import { createThinkSplitter, type Segment } from '../../src/providers/thinkSplitter.js';

/** Feeds the pieces in order and returns what each channel received, plus the raw segments. */
function run(pieces: string[]): { reasoning: string; text: string; segments: Segment[] } {
  const splitter = createThinkSplitter();
  const segments = [...pieces.flatMap((p) => splitter.push(p)), ...splitter.flush()];
  const join = (channel: Segment['channel']): string =>
    segments
      .filter((s) => s.channel === channel)
      .map((s) => s.text)
      .join('');
  return { reasoning: join('reasoning'), text: join('text'), segments };
}

/** Every way of cutting `input` into two and into three pieces. */
function allSplits(input: string): string[][] {
  const out: string[][] = [[input]];
  for (let i = 0; i <= input.length; i += 1) {
    out.push([input.slice(0, i), input.slice(i)]);
    for (let j = i; j <= input.length; j += 1) {
      out.push([input.slice(0, i), input.slice(i, j), input.slice(j)]);
    }
  }
  return out;
}

describe('thinkSplitter', () => {
  it('routes a think block to reasoning and the rest to text', () => {
    expect(run(['<think>plan it</think>The answer.'])).toMatchObject({
      reasoning: 'plan it',
      text: 'The answer.',
    });
  });

  it('passes plain text through untouched, including lone angle brackets', () => {
    expect(run(['a < b and <b>bold</b> <thin'])).toMatchObject({
      reasoning: '',
      text: 'a < b and <b>bold</b> <thin',
    });
  });

  it('recognises the tags at every split position (two and three pieces)', () => {
    const input = 'Hi <think>step one</think>Done <think>again</think>end';
    for (const pieces of allSplits(input)) {
      const result = run(pieces);
      expect({ pieces, reasoning: result.reasoning, text: result.text }).toEqual({
        pieces,
        reasoning: 'step oneagain',
        text: 'Hi Done end',
      });
    }
  });

  it('recognises the tags when fed one character at a time', () => {
    const input = '<think>\nweigh options\n</think>\n\nFinal reply [WAIT]';
    expect(run(Array.from(input))).toMatchObject({
      reasoning: 'weigh options\n',
      text: 'Final reply [WAIT]',
    });
  });

  it('drops the whitespace that follows a tag, at any split', () => {
    const input = '<think>\n\nidea</think>\n\n  Answer';
    for (const pieces of allSplits(input)) {
      expect(run(pieces)).toMatchObject({ reasoning: 'idea', text: 'Answer' });
    }
  });

  it('releases text as soon as it cannot be a tag (no needless holding)', () => {
    const splitter = createThinkSplitter();
    expect(splitter.push('hello <')).toEqual([{ channel: 'text', text: 'hello ' }]);
    expect(splitter.push('b>')).toEqual([{ channel: 'text', text: '<b>' }]);
    expect(splitter.push('<think')).toEqual([]);
    expect(splitter.push('>x')).toEqual([{ channel: 'reasoning', text: 'x' }]);
  });

  it('keeps an unclosed think block as reasoning and flushes a held tag prefix', () => {
    expect(run(['<think>still going </thi'])).toMatchObject({
      reasoning: 'still going </thi',
      text: '',
    });
  });

  it('merges adjacent runs of one channel within a push', () => {
    const splitter = createThinkSplitter();
    expect(splitter.push('a<think></think>b')).toEqual([{ channel: 'text', text: 'ab' }]);
  });

  it('handles CJK text around the tags', () => {
    expect(run(['<think>想一想', '</think>', '你好'])).toMatchObject({
      reasoning: '想一想',
      text: '你好',
    });
  });
});
