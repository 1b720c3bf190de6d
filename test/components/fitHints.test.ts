/**
 * The key hint line on a terminal too narrow for all of it: hints are left out whole, in
 * reverse order of importance, and how to quit always stays (it used to be cut to "C…").
 */
import { describe, expect, it } from 'vitest';
import { fitHints } from '../../components/KeyHint.js';

const parts = [
  { text: 'Esc interrupt', keep: false },
  { text: '> queue a message', keep: false },
  { text: '↑↓ history', keep: false },
  { text: 'Tab switch pane', keep: false },
  { text: 'Ctrl+P pause', keep: false },
  { text: 'Ctrl+C quit', keep: true },
  { text: 'Ctrl+D detach', keep: false },
];

describe('the key hint line', () => {
  it('is whole when it fits', () => {
    const all = parts.map((p) => p.text).join(' · ');
    expect(fitHints(parts, all.length)).toBe(all);
  });

  it('leaves hints out whole and keeps how to quit when it does not', () => {
    const line = fitHints(parts, 60);
    expect(line.length).toBeLessThanOrEqual(60);
    expect(line).toContain('Ctrl+C quit');
    expect(line).not.toContain('…');
    for (const piece of line.split(' · ')) expect(parts.map((p) => p.text)).toContain(piece);
    // The first hints are the important ones: they stay before later ones are considered.
    expect(line.startsWith('Esc interrupt · > queue a message')).toBe(true);
  });

  it('cuts only when even how to quit does not fit', () => {
    expect(fitHints(parts, 6)).toHaveLength(6);
  });
});
