/**
 * The full-screen app: builds the agent, enters the alternate screen, renders, and comes back
 * exactly once on every exit path (quit, Ctrl+C, SIGTERM, SIGHUP, a crash).
 */
import React from 'react';
import { render as inkRender } from 'ink';
import type { AppOptions } from '../src/app/createApp.js';
import type { CliFlags } from '../src/cli/args.js';
import { resolveLanguage, t, type Lang } from '../src/i18n/messages.js';
import { App } from './App.js';
import type { AgentController, AgentLoop } from './controller.js';
import { CLEAR_SCREEN, createTerminalGuard } from './terminal/terminalGuard.js';

/** What the screen needs of the built app (the real `App` from createApp satisfies it). */
export interface TuiApp {
  agent: AgentController & AgentLoop & { notice?(text: string, level?: 'info' | 'warn'): void };
  config: { workspace: string; language: Lang | 'auto' };
  warnings: readonly string[];
  close(): Promise<void>;
}

export type TuiAppResult =
  { ok: true; app: TuiApp } | { ok: false; message: string; exitCode: number };

type Emitter = Pick<NodeJS.EventEmitter, 'on' | 'off'>;

/** Injected in tests; each defaults to the real thing. */
export interface TuiDeps {
  createApp?(opts: AppOptions): Promise<TuiAppResult>;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WritableStream;
  env?: NodeJS.ProcessEnv;
  /** Where signals and uncaught errors are heard (the process). */
  proc?: Emitter;
  /** How long closing the app may take before we give up waiting. */
  closeTimeoutMs?: number;
}

/** Exit codes for the signals: 128 + the signal's number, as shells report them. */
const SIGNAL_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/** The crash's message; with --debug, its stack too. */
function describe(err: unknown, debug: boolean): string {
  if (err instanceof Error) return debug && err.stack ? err.stack : err.message;
  return String(err);
}

async function within(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([p.catch(() => undefined), new Promise((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

/** Runs the full-screen app until it quits; resolves with the process exit code. */
export async function runTui(flags: CliFlags, deps: TuiDeps = {}): Promise<number> {
  const stdin = deps.stdin ?? process.stdin;
  const stdout = deps.stdout ?? process.stdout;
  const stderr = deps.stderr ?? process.stderr;
  const env = deps.env ?? process.env;
  const proc: Emitter = deps.proc ?? process;
  const create =
    deps.createApp ??
    (async (opts: AppOptions) => (await import('../src/app/createApp.js')).createApp(opts));

  const made = await create({ flags, env });
  if (!made.ok) {
    stderr.write(`${made.message}\n`);
    return made.exitCode;
  }
  const { app } = made;
  const lang = resolveLanguage(app.config.language, env);
  if (!stdout.isTTY || !stdin.isTTY) {
    stderr.write(`${t(lang, 'tui.notATerminal')}\n`);
    await app.close();
    return 2;
  }
  for (const w of app.warnings) app.agent.notice?.(w, 'warn');

  const terminal = createTerminalGuard(stdout, stdin);
  return new Promise<number>((resolve) => {
    let instance: ReturnType<typeof inkRender> | undefined;
    let finished = false;
    const handlers: [string, (...args: unknown[]) => void][] = [];

    const finish = (code: number, error?: unknown): void => {
      if (finished) return;
      finished = true;
      for (const [event, h] of handlers) proc.off(event, h);
      try {
        instance?.unmount();
      } catch {
        // Unmounting a crashed tree can throw; the terminal must still be restored.
      }
      terminal.restore();
      if (error !== undefined)
        stderr.write(`${t(lang, 'error.unexpected', { message: describe(error, flags.debug) })}\n`);
      void within(app.close(), deps.closeTimeoutMs ?? 3000).then(() => resolve(code));
    };
    const on = (event: string, h: (...args: unknown[]) => void): void => {
      handlers.push([event, h]);
      proc.on(event, h);
    };
    for (const [signal, code] of Object.entries(SIGNAL_CODES)) on(signal, () => finish(code));
    on('uncaughtException', (err) => finish(1, err));
    on('unhandledRejection', (reason) => finish(1, reason ?? 'unhandled rejection'));
    // The last resort: whatever ends the process, the screen comes back.
    on('exit', () => terminal.restore());

    terminal.enter();
    try {
      instance = inkRender(
        <App
          controller={app.agent}
          loop={app.agent}
          workspace={app.config.workspace}
          lang={lang}
          onExit={() => finish(0)}
          onRedraw={() => stdout.write(CLEAR_SCREEN)}
        />,
        {
          stdin,
          stdout,
          stderr: stderr as NodeJS.WriteStream,
          exitOnCtrlC: false,
          patchConsole: false,
          maxFps: 30,
        },
      );
      instance.waitUntilExit().then(
        () => finish(0),
        (err: unknown) => finish(1, err),
      );
    } catch (err) {
      finish(1, err);
    }
  });
}
