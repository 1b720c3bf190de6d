/**
 * Waits for a rendered frame to satisfy a condition: polls `lastFrame()` on a short interval
 * until the predicate holds or the deadline passes. Never a fixed sleep.
 */
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]/g;

/** The frame without colour codes. */
export function plain(frame: string | undefined): string {
  return (frame ?? '').replace(ANSI, '');
}

export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
}

export async function waitForFrame(
  lastFrame: () => string | undefined,
  predicate: (frame: string) => boolean,
  { timeoutMs = 3000, intervalMs = 5 }: WaitOptions = {},
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const frame = plain(lastFrame());
    if (predicate(frame)) return frame;
    if (Date.now() > deadline) {
      throw new Error(
        `waitForFrame: condition not met within ${timeoutMs} ms. Last frame:\n${frame}`,
      );
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Waits for any condition (not only frames), with the same polling and deadline. */
export async function waitFor(
  predicate: () => boolean,
  what: string,
  { timeoutMs = 3000, intervalMs = 5 }: WaitOptions = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline)
      throw new Error(`waitFor: ${what} did not happen within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
