import type { Options } from 'execa';
import { ToolFailure } from '../web/errors.js';
import { once } from '../web/lazy.js';

/** The fields of an execa result (with `reject: false`) that the tools read. */
interface ExecaResultLike {
  stdout?: unknown;
  stderr?: unknown;
  exitCode?: number;
  failed?: boolean;
  timedOut?: boolean;
  isCanceled?: boolean;
  code?: string;
  shortMessage?: string;
}

/** A started subprocess: awaitable for its result, with a pid once spawned. */
type SubprocessLike = PromiseLike<ExecaResultLike> & {
  readonly pid?: number;
  unref?(): void;
};

/**
 * The execa call signature the tools depend on: always a file plus an argument array,
 * never a command string. Tests pass a stub that records argv.
 */
export type ExecaLike = (file: string, args: readonly string[], options: Options) => SubprocessLike;

export interface RunOptions {
  signal: AbortSignal;
  /** Kill the command after this long (default 15 s). */
  timeoutMs?: number;
  /** Extra environment variables (added to the inherited environment). */
  env?: Record<string, string>;
}

export interface RunResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface LaunchOptions {
  signal: AbortSignal;
  env?: Record<string, string>;
  /**
   * Wait this long for the command to fail fast (an opener such as xdg-open exits at once
   * with a code when it finds no browser); a command still running after it counts as started.
   */
  graceMs?: number;
}

/** Runs external commands for the system and browse tools. */
export interface CommandRunner {
  /** Runs to completion and returns its output; a missing program, timeout or abort throws. */
  run(file: string, args: readonly string[], options: RunOptions): Promise<RunResult>;
  /** Starts a long-lived program detached from us (an app, a browser) and returns once it runs. */
  launch(file: string, args: readonly string[], options: LaunchOptions): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 15_000;
/** SIGTERM first; SIGKILL if the command ignores it this long. */
const FORCE_KILL_AFTER_MS = 2_000;

/**
 * execa, imported on the first command: loading it costs start-up a few hundred
 * milliseconds that a session which never runs a command should not pay.
 */
const loadExecaModule = once(() => import('execa'));

async function loadExeca(): Promise<ExecaLike> {
  const { execa } = await loadExecaModule();
  return (file, args, options) => execa(file, args, options);
}

/**
 * A {@link CommandRunner} over execa (`execaFn`, else the real one, loaded on the first
 * command). Commands never go through a shell (`shell` is never set): arguments reach the
 * program exactly as given, so `; rm -rf`, `$(…)`, backticks and `&` in model-supplied text
 * are just characters.
 */
export function createCommandRunner(execaFn?: ExecaLike): CommandRunner {
  const getExeca = execaFn ? async (): Promise<ExecaLike> => execaFn : loadExeca;
  return {
    async run(file, args, options) {
      if (options.signal.aborted)
        throw new ToolFailure('aborted', 'Stopped: the turn was interrupted.');
      const execa = await getExeca();
      const result = await execa(file, args, {
        cancelSignal: options.signal,
        timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        forceKillAfterDelay: FORCE_KILL_AFTER_MS,
        reject: false,
        stdin: 'ignore',
        windowsHide: true,
        maxBuffer: 32 * 1024 * 1024,
        ...(options.env ? { env: options.env } : {}),
      });
      if (result.isCanceled)
        throw new ToolFailure('aborted', `Stopped ${file}: the turn was interrupted.`);
      if (result.timedOut) {
        throw new ToolFailure(
          'timeout',
          `${file} did not finish within ${(options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000} s and was stopped.`,
        );
      }
      if (result.exitCode === undefined) throw spawnFailure(file, result);
      return {
        stdout: text(result.stdout),
        stderr: text(result.stderr),
        exitCode: result.exitCode,
      };
    },

    async launch(file, args, options) {
      const execa = await getExeca();
      // Checked after the load: an abort while execa loads must not start the program.
      if (options.signal.aborted)
        throw new ToolFailure('aborted', 'Stopped: the turn was interrupted.');
      // No cancelSignal and no timeout here on purpose: the program must outlive this turn,
      // and aborting the turn later must not close the user's browser or app.
      const subprocess = execa(file, args, {
        detached: true,
        stdio: 'ignore',
        cleanup: false,
        reject: false,
        windowsHide: false,
        ...(options.env ? { env: options.env } : {}),
      });
      if (subprocess.pid === undefined) throw spawnFailure(file, await subprocess);
      subprocess.unref?.();
      const grace = options.graceMs ?? 0;
      if (grace <= 0) return;
      let timer: NodeJS.Timeout | undefined;
      const early = await Promise.race([
        Promise.resolve(subprocess).then((result) => result),
        // Not unref'd: the child is, so this timer is the only thing keeping the event
        // loop alive while we wait. Unref'd, a headless run (print mode, nothing else
        // pending) ran out of work mid-await and Node exited with code 13.
        new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), grace);
        }),
      ]);
      clearTimeout(timer);
      if (early?.failed && early.exitCode !== undefined) {
        throw new ToolFailure('io', `${file} failed at once (exit code ${early.exitCode}).`);
      }
    },
  };
}

function spawnFailure(file: string, result: ExecaResultLike): ToolFailure {
  if (result.code === 'ENOENT') {
    return new ToolFailure(
      'unsupported',
      `"${file}" is not installed or not on PATH, so this cannot be done here.`,
    );
  }
  if (result.code === 'EACCES')
    return new ToolFailure('denied', `"${file}" cannot be run: permission denied.`);
  return new ToolFailure(
    'io',
    `Could not start ${file}: ${result.shortMessage ?? result.code ?? 'unknown error'}.`,
  );
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  return String(value);
}
