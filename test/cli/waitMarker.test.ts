import { describe, expect, it } from 'vitest';
import { createWaitMarkerFilter } from '../../src/cli/waitMarker.js';

/** Streams `chunks` through a fresh filter; returns what was printed, and when. */
function stream(chunks: string[]): { printed: string[]; all: string } {
  const filter = createWaitMarkerFilter();
  const printed = chunks.map((c) => filter.push(c));
  printed.push(filter.end());
  return { printed, all: printed.join('') };
}

describe('the [WAIT] marker filter', () => {
  it('drops a final marker, however the stream splits it', () => {
    for (const chunks of [
      ['Done. [WAIT]'],
      ['Done.', ' [WA', 'IT]'],
      ['Done. [', 'W', 'A', 'I', 'T', ']', '\n'],
    ]) {
      expect(stream(chunks).all).toBe('Done.');
    }
  });

  it('prints text at once when it cannot be the marker', () => {
    expect(stream(['Hello ', 'world', '. [not a marker]']).printed).toEqual([
      'Hello',
      ' world',
      '. [not a marker]',
      '',
    ]);
  });

  it('keeps a [WAIT] that more text follows, and one inside code', () => {
    expect(stream(['Use [WAIT]', ' to stop.']).all).toBe('Use [WAIT] to stop.');
    expect(stream(['Type `[WAIT]`']).all).toBe('Type `[WAIT]`');
  });
});
