/**
 * Ink's own text caches (measure-text's Map, wrap-text's object) keep every text ever drawn;
 * `boundInkTextCaches` empties each when it reaches its limit. Drawn through Ink for real:
 * hundreds of distinct texts, as a streaming reply and a ticking status line bring.
 */
import React from 'react';
import { Box, Text } from 'ink';
import { render } from 'ink-testing-library';
import { afterAll, describe, expect, test } from 'vitest';
import {
  INK_TEXT_CACHE_LIMIT,
  boundInkTextCaches,
  inkTextCacheSizes,
} from '../../components/terminal/inkTextCaches.js';
import { checkInk } from '../../components/terminal/inkInternals.js';

const LIMIT = 50;

function Screen({ text }: { text: string }): React.JSX.Element {
  return (
    <Box width={24} flexDirection="column">
      <Text wrap="wrap">{text}</Text>
      <Text wrap="truncate">{`status ${text.length} tokens · ${text.slice(0, 30)}`}</Text>
    </Box>
  );
}

/** A distinct text per frame, long enough to wrap at 24 columns. */
const textOf = (i: number): string => `reply ${i}: the supplier's invoice ${i * 7919} is due`;

describe("Ink's text caches", () => {
  afterAll(() => {
    boundInkTextCaches(undefined, INK_TEXT_CACHE_LIMIT);
  });

  test('are left alone on an Ink the door was not written for', () => {
    expect(boundInkTextCaches(checkInk('7.0.0'), LIMIT)).toBe(false);
  });

  test('hold at most their limit over 600 distinct frames, and are in use', () => {
    expect(boundInkTextCaches(undefined, LIMIT)).toBe(true);
    const view = render(<Screen text={textOf(0)} />);
    let peak = { measure: 0, wrap: 0 };
    for (let i = 1; i <= 600; i++) {
      view.rerender(<Screen text={textOf(i)} />);
      const sizes = inkTextCacheSizes()!;
      peak = {
        measure: Math.max(peak.measure, sizes.measure),
        wrap: Math.max(peak.wrap, sizes.wrap),
      };
    }
    // Unbounded, each would hold well over 600 entries by now.
    expect(peak.measure).toBeLessThanOrEqual(LIMIT);
    expect(peak.wrap).toBeLessThanOrEqual(LIMIT);
    // The caches still serve the frames (the probe found the ones Ink uses).
    expect(peak.measure).toBeGreaterThan(LIMIT / 2);
    expect(peak.wrap).toBeGreaterThan(LIMIT / 2);
    expect(view.lastFrame()).toContain('reply 600:');
    view.unmount();
  });

  test('a frame drawn again after the caches were emptied is the same frame', () => {
    expect(boundInkTextCaches(undefined, LIMIT)).toBe(true);
    const first = render(<Screen text={textOf(1_000_001)} />);
    const before = first.lastFrame();
    first.unmount();
    const other = render(<Screen text={textOf(0)} />);
    for (let i = 1; i <= 3 * LIMIT; i++) other.rerender(<Screen text={textOf(2_000_000 + i)} />);
    other.unmount();
    const again = render(<Screen text={textOf(1_000_001)} />);
    expect(again.lastFrame()).toBe(before);
    expect(before).toContain('reply 1000001');
    again.unmount();
  });
});
