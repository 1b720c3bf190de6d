/**
 * A row of styled text as it appears in Ink's frames: Ink re-encodes every row's escape
 * codes while it composes a frame, so text painted outside Ink must go through the same step
 * to match the frame byte for byte (the frame writer then sees no change to write again).
 *
 * Ink's Output is not exported; it is imported from Ink's own module file, the same module
 * Ink's renderer uses (Ink is pinned in package.json; test/components/fastEcho.test.tsx
 * checks the rows against Ink's real frames).
 */
import Output from '../../node_modules/ink/build/output.js';

/** The frame line Ink makes of `text` written at column 0 of a row `width` wide. */
export function frameRow(text: string, width: number): string {
  const out = new Output({ width, height: 1 });
  out.write(0, 0, text, { transformers: [] });
  return out.get().output;
}
