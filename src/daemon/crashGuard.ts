/**
 * The background agent's last word. An error nothing caught (an uncaught exception, an
 * unhandled rejection) would end the process with a stack trace in a log nobody reads, while
 * the user thinks the agent still works for them. The guard hands the first such error, as
 * one line, to `onCrash` (the agent notifies the user and stops cleanly) and ends the process
 * anyway if that takes too long: a broken process must not linger half alive.
 */

export interface CrashGuardOptions {
  /**
   * Tell the user (`reason`, one line) and stop; the process exits when it resolves or after
   * the deadline. `error` is what was thrown, for the log's stack trace.
   */
  onCrash(reason: string, error: unknown): Promise<void>;
  /** Ends the process (default `process.exit`). */
  exit?(code: number): void;
  /** How long `onCrash` may take (default 15 s: a notifier's 5 s and a clean stop). */
  deadlineMs?: number;
  /** Where the errors are reported (default `process`). */
  target?: NodeJS.EventEmitter;
}

/** Installs the guard; returns its removal. */
export function guardCrashes(opts: CrashGuardOptions): () => void {
  const target = opts.target ?? process;
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let crashed = false;
  const onError = (err: unknown): void => {
    // A second error while stopping is a consequence of the first: the first is the reason.
    if (crashed) return;
    crashed = true;
    setTimeout(() => exit(1), opts.deadlineMs ?? 15_000);
    opts.onCrash(`an unexpected error: ${describe(err)}`, err).then(
      () => exit(1),
      () => exit(1),
    );
  };
  target.on('uncaughtException', onError);
  target.on('unhandledRejection', onError);
  return () => {
    target.off('uncaughtException', onError);
    target.off('unhandledRejection', onError);
  };
}

function describe(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
