/**
 * A disposer stack: each resource registers its stop as it starts, and closing the stack
 * stops them all in reverse order (the last started goes first, so nothing is stopped while
 * something started after it still uses it). Every stop is isolated: one that throws or
 * rejects is reported and the rest still run, so a failing stop can never leave the home
 * lock behind. Modelled on VS Code's `DisposableStore`.
 */

/** A stop that failed while the stack closed: which resource, and why. */
export interface StopFailure {
  name: string;
  error: unknown;
}

type Stop = () => unknown;

export class DisposerStack {
  private readonly stops: { name: string; stop: Stop }[] = [];
  private closing: Promise<StopFailure[]> | undefined;

  /** @param report told of every failing stop, as it fails (the caller prints it). */
  constructor(private readonly report: (failure: StopFailure) => void = () => undefined) {}

  /** Whether `close` has been called; resources started from now on are stopped at once. */
  get closed(): boolean {
    return this.closing !== undefined;
  }

  /**
   * Registers `stop` under `name` (used in reports). On a stack already closed the resource
   * must not outlive it, so `stop` runs at once (its failure goes to `report`).
   */
  defer(name: string, stop: Stop): void {
    if (this.closing) {
      void runIsolated({ name, stop }).then((f) => f && this.report(f));
      return;
    }
    this.stops.push({ name, stop });
  }

  /** Registers `stop` for `value` and returns `value`, so a start reads as one line. */
  use<T>(name: string, value: T, stop: (value: T) => unknown): T {
    this.defer(name, () => stop(value));
    return value;
  }

  /**
   * Stops everything in reverse order of registration and resolves with the failures; it
   * never rejects. A synchronous stop runs at once, so when only those are registered all of
   * them have run when `close` returns (a signal or `exit` handler can rely on that); an
   * asynchronous one is awaited before the next. Idempotent: later calls return the same
   * promise and stop nothing twice.
   */
  close(): Promise<StopFailure[]> {
    this.closing ??= this.stopFrom([]);
    return this.closing;
  }

  private stopFrom(failures: StopFailure[]): Promise<StopFailure[]> {
    const fail = (name: string, error: unknown): void => {
      failures.push({ name, error });
      this.report({ name, error });
    };
    for (let entry = this.stops.pop(); entry; entry = this.stops.pop()) {
      const { name } = entry;
      let result: unknown;
      try {
        result = entry.stop();
      } catch (error) {
        fail(name, error);
        continue;
      }
      if (isThenable(result)) {
        return Promise.resolve(result).then(
          () => this.stopFrom(failures),
          (error: unknown) => (fail(name, error), this.stopFrom(failures)),
        );
      }
    }
    return Promise.resolve(failures);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';
}

async function runIsolated(entry: { name: string; stop: Stop }): Promise<StopFailure | undefined> {
  try {
    await entry.stop();
    return undefined;
  } catch (error) {
    return { name: entry.name, error };
  }
}

/** One line for a failed stop, for stderr: `could not stop the MCP servers: EPIPE`. */
export function describeStopFailure(failure: StopFailure): string {
  const why = failure.error instanceof Error ? failure.error.message : String(failure.error);
  return `could not stop ${failure.name}: ${why}`;
}

/** A failed stop as a line for stderr: `cogito: could not stop …` and a newline. */
export function stopFailureLine(failure: StopFailure): string {
  return `cogito: ${describeStopFailure(failure)}\n`;
}
