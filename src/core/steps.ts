/**
 * Running step generators: long scans (the reply parser on a hostile reply) are written as
 * generators that pause now and then. {@link drain} runs one to the end at once; {@link
 * drainYielding} gives the event loop a turn whenever a time slice is used up, so a
 * keypress or SIGTERM is handled within a slice whatever the input.
 */

/** Runs the steps to the end and returns the result. */
export function drain<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const r = steps.next();
    if (r.done === true) return r.value;
  }
}

/** Default time slice: far under the 50 ms a keypress may wait. */
export const SLICE_MS = 4;

/**
 * Runs the steps, yielding to the event loop (setImmediate, so I/O callbacks run) once a
 * slice of `sliceMs` is used. Returns undefined if `signal` aborts before the end.
 */
export async function drainYielding<T>(
  steps: Generator<void, T, void>,
  signal?: AbortSignal,
  sliceMs: number = SLICE_MS,
): Promise<T | undefined> {
  let sliceStart = performance.now();
  for (;;) {
    const r = steps.next();
    if (r.done === true) return r.value;
    if (performance.now() - sliceStart < sliceMs) continue;
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (signal?.aborted === true) return undefined;
    sliceStart = performance.now();
  }
}
