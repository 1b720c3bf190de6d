/**
 * Everything a program wrote to its terminal, as timestamped chunks, and a way to wait for
 * text in it. Both terminal drivers fill one: the pseudo-terminal helper (`ptyApp.ts`) and
 * tmux's control mode (`tmux.ts`). Times are CLOCK_MONOTONIC milliseconds (`clock.ts`).
 */

/** One read of the program's output: when it arrived and what it held. */
export interface Chunk {
  t: number;
  data: string;
}

/** Removes colour and cursor escape sequences, leaving the text a person would read. */
export function stripAnsi(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[@-Z\\-_]/g, '');
}

export class OutputLog {
  readonly chunks: Chunk[] = [];
  /** Set once the program has ended (negative: killed by that signal). */
  exitCode: number | undefined;
  private readonly waiters = new Set<() => void>();

  /** Records output read at `t` and wakes whoever waits. */
  protected record(t: number, data: string): void {
    this.chunks.push({ t, data });
    this.wake();
  }

  /** Lets every waiter look again (new output, or the program ended). */
  protected wake(): void {
    for (const w of [...this.waiters]) w();
  }

  /** Everything written from chunk `from` on (with escape sequences). */
  text(from = 0): string {
    let s = '';
    for (let i = from; i < this.chunks.length; i++) s += this.chunks[i]!.data;
    return s;
  }

  /** Index of the first chunk read at or after time `t`. */
  indexAfter(t: number): number {
    let i = this.chunks.length;
    while (i > 0 && this.chunks[i - 1]!.t >= t) i -= 1;
    return i;
  }

  /** Resolves once nothing has been written for `quietMs` (or after `maxMs` regardless). */
  async settled(quietMs: number, maxMs: number, now: () => number): Promise<void> {
    const deadline = now() + maxMs;
    for (;;) {
      const last = this.chunks.at(-1)?.t ?? 0;
      const wait = last + quietMs - now();
      if (wait <= 0 || now() >= deadline) return;
      await new Promise((r) => setTimeout(r, Math.min(wait, deadline - now()) + 1));
    }
  }

  /**
   * Resolves with the chunk at which `predicate`, given all output from chunk `from` on
   * (escape sequences stripped unless `raw`), first holds.
   */
  waitFor(
    predicate: (text: string) => boolean,
    what: string,
    opts: { from?: number; timeoutMs?: number; raw?: boolean } = {},
  ): Promise<{ index: number; t: number }> {
    const timeoutMs = opts.timeoutMs ?? 20_000;
    let acc = '';
    let scanned = opts.from ?? 0;
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        while (scanned < this.chunks.length) {
          const c = this.chunks[scanned]!;
          acc += c.data;
          scanned += 1;
          if (predicate(opts.raw ? acc : stripAnsi(acc))) {
            resolve({ index: scanned - 1, t: c.t });
            return true;
          }
        }
        if (this.exitCode !== undefined) {
          reject(new Error(`${what}: the program exited (${this.exitCode}) first`));
          return true;
        }
        return false;
      };
      if (check()) return;
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        const tail = stripAnsi(acc).slice(-1500);
        reject(new Error(`${what}: not seen after ${timeoutMs} ms. Last output:\n${tail}`));
      }, timeoutMs);
      const waiter = (): void => {
        if (!check()) return;
        clearTimeout(timer);
        this.waiters.delete(waiter);
      };
      this.waiters.add(waiter);
    });
  }
}
