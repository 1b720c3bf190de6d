/**
 * Stand-ins for a terminal's stdin and stdout, for running the real `runTui` in a test:
 * stdin can be typed into (Ink reads it in raw mode), stdout records everything written.
 */
import { EventEmitter } from 'node:events';
import type { ScreenSessionDeps } from '../../components/terminal/screenSession.js';

export class FakeStdin extends EventEmitter {
  isTTY = true;
  rawMode = false;
  private data: string | null = null;
  constructor(opts: { isTTY?: boolean } = {}) {
    super();
    this.isTTY = opts.isTTY ?? true;
  }
  write(data: string): void {
    this.data = data;
    this.emit('readable');
  }
  read(): string | null {
    const d = this.data;
    this.data = null;
    return d;
  }
  setRawMode(mode: boolean): void {
    this.rawMode = mode;
  }
  setEncoding(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}

export class FakeStdout extends EventEmitter {
  isTTY: boolean;
  columns: number;
  rows: number;
  constructor(
    /** Every write in order, shared with stderr when a test wants the interleaving. */
    readonly log: { stream: 'stdout' | 'stderr'; data: string }[] = [],
    opts: { isTTY?: boolean; columns?: number; rows?: number } = {},
  ) {
    super();
    this.isTTY = opts.isTTY ?? true;
    this.columns = opts.columns ?? 80;
    this.rows = opts.rows ?? 24;
  }
  write = (data: string): boolean => {
    this.log.push({ stream: 'stdout', data });
    return true;
  };
  /** Everything written to this stream so far. */
  text(): string {
    return this.log
      .filter((l) => l.stream === 'stdout')
      .map((l) => l.data)
      .join('');
  }
}

export class FakeStderr {
  constructor(readonly log: { stream: 'stdout' | 'stderr'; data: string }[] = []) {}
  write = (data: string): boolean => {
    this.log.push({ stream: 'stderr', data });
    return true;
  };
  text(): string {
    return this.log
      .filter((l) => l.stream === 'stderr')
      .map((l) => l.data)
      .join('');
  }
}

/** What a screen session needs, made of fakes: a `columns`×`rows` terminal, its stdin, its stdout. */
export function fakeSessionTerminal(
  columns: number,
  rows: number,
): { io: ScreenSessionDeps; stdin: FakeStdin; stdout: FakeStdout } {
  const stdin = new FakeStdin();
  const stdout = new FakeStdout([], { columns, rows });
  const io: ScreenSessionDeps = {
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: new FakeStderr() as unknown as NodeJS.WritableStream,
    proc: new EventEmitter(),
    describeCrash: (e) => String(e),
  };
  return { io, stdin, stdout };
}
