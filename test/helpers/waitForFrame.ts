/**
 * Waits for a rendered frame to satisfy a condition, through the one polling loop
 * ({@link waitUntil}): never a fixed sleep.
 */
import { waitUntil, type WaitOptions } from './waitFor.js';

export type { WaitOptions } from './waitFor.js';

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]/g;

/** The frame without colour codes. */
export function plain(frame: string | undefined): string {
  return (frame ?? '').replace(ANSI, '');
}

/** Resolves with the first frame (colour codes removed) that satisfies `predicate`. */
export function waitForFrame(
  lastFrame: () => string | undefined,
  predicate: (frame: string) => boolean,
  { timeoutMs = 3000, intervalMs = 5 }: WaitOptions = {},
): Promise<string> {
  return waitUntil(
    () => {
      const frame = plain(lastFrame());
      return predicate(frame) ? frame : false;
    },
    'the frame condition',
    { timeoutMs, intervalMs, detail: () => `Last frame:\n${plain(lastFrame())}` },
  );
}

/** Waits for any condition (not only frames), with a frame-sized default deadline. */
export async function waitFor(
  predicate: () => boolean,
  what: string,
  { timeoutMs = 3000, intervalMs = 5 }: WaitOptions = {},
): Promise<void> {
  await waitUntil(() => predicate() || undefined, what, { timeoutMs, intervalMs });
}
