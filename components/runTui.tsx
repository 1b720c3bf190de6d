/**
 * The full-screen app: on first run (or with --setup) the setup wizard, then the agent's
 * screen. Both live in one stay in the alternate screen, entered once and restored exactly
 * once on every exit path (quit, Ctrl+C, SIGTERM, SIGHUP, a crash).
 */
import React from 'react';
import type { AppOptions } from '../src/app/createApp.js';
import type { ForeignSession } from '../src/app/openSession.js';
import type { CliFlags } from '../src/cli/args.js';
import { resolveLanguage, t, type Lang } from '../src/i18n/messages.js';
import type { SetupPlan } from '../src/setup/prepare.js';
import type { SetupServices } from '../src/setup/services.js';
import { App } from './App.js';
import { ConfirmSession } from './ConfirmSession.js';
import type { AgentController, AgentLoop } from './controller.js';
import { SetupWizard, type SetupOutcome } from './setup/SetupWizard.js';
import { openSession, type ScreenSession, type SessionIo } from './terminal/session.js';

/** What the screen needs of the built app (the real `App` from createApp satisfies it). */
export interface TuiApp {
  agent: AgentController & AgentLoop & { notice?(text: string, level?: 'info' | 'warn'): void };
  config: { workspace: string; language: Lang | 'auto'; mouse?: boolean };
  warnings: readonly string[];
  close(): Promise<void>;
}

export type TuiAppResult =
  { ok: true; app: TuiApp } | { ok: false; message: string; exitCode: number };

type Emitter = Pick<NodeJS.EventEmitter, 'on' | 'off'>;

/** Injected in tests; each defaults to the real thing. */
export interface TuiDeps {
  createApp?(opts: AppOptions): Promise<TuiAppResult>;
  /**
   * Whether the setup wizard runs first, and what it starts from. Defaults to the real check
   * of config.json, but only with the real `createApp`: an injected app brings its own
   * configuration, so a test of the screen never depends on the machine's config file.
   */
  prepareSetup?(flags: CliFlags, env: NodeJS.ProcessEnv): SetupPlan;
  /** The wizard's effects (network checks, the config write); default: the real ones. */
  setupServices?(plan: Extract<SetupPlan, { run: true }>): SetupServices;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WritableStream;
  env?: NodeJS.ProcessEnv;
  /** Where signals and uncaught errors are heard (the process). */
  proc?: Emitter;
  /** How long closing the app may take before we give up waiting. */
  closeTimeoutMs?: number;
}

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

async function realPrepare(flags: CliFlags, env: NodeJS.ProcessEnv): Promise<SetupPlan> {
  return (await import('../src/setup/prepare.js')).prepareSetup({ flags, env });
}

async function realServices(plan: Extract<SetupPlan, { run: true }>): Promise<SetupServices> {
  return (await import('../src/setup/services.js')).createSetupServices({ home: plan.home });
}

/** Runs the full-screen app until it quits; resolves with the process exit code. */
export async function runTui(flags: CliFlags, deps: TuiDeps = {}): Promise<number> {
  const stdin = deps.stdin ?? process.stdin;
  const stdout = deps.stdout ?? process.stdout;
  const stderr = deps.stderr ?? process.stderr;
  const env = deps.env ?? process.env;
  const create =
    deps.createApp ??
    (async (opts: AppOptions) => (await import('../src/app/createApp.js')).createApp(opts));
  const plan: SetupPlan = deps.prepareSetup
    ? deps.prepareSetup(flags, env)
    : deps.createApp
      ? { run: false }
      : await realPrepare(flags, env);

  // The language for messages before the app's config is known (then the app's wins).
  let lang: Lang = plan.run ? plan.answers.language : resolveLanguage('auto', env);
  const io: SessionIo = {
    stdin,
    stdout,
    stderr,
    proc: deps.proc ?? process,
    describeCrash: (err) => t(lang, 'error.unexpected', { message: describe(err, flags.debug) }),
  };

  let session: ScreenSession | undefined;
  if (plan.run) {
    if (!stdout.isTTY || !stdin.isTTY) {
      stderr.write(`${t(lang, 'tui.notATerminal')}\n`);
      return 2;
    }
    const services = deps.setupServices ? deps.setupServices(plan) : await realServices(plan);
    session = openSession(io);
    const shown = await session.show<SetupOutcome>((finish) => (
      <SetupWizard
        initial={plan.answers}
        personas={plan.personas}
        file={plan.file}
        services={services}
        onDone={finish}
      />
    ));
    if (shown.ended) return shown.code;
    if (!shown.value.saved) {
      // Quit: nothing was written, and there is nothing to start.
      session.end(0);
      return 0;
    }
    lang = shown.value.answers.language;
    session.between();
  }

  // --session naming another workspace's session: the user decides, before anything starts.
  const confirmSession = async (foreign: ForeignSession): Promise<boolean> => {
    if (!stdout.isTTY || !stdin.isTTY) return false;
    session ??= openSession(io);
    const answer = await session.show<boolean>((finish) => (
      <ConfirmSession session={foreign} lang={lang} onAnswer={finish} />
    ));
    if (answer.ended) return false;
    session.between();
    return answer.value;
  };
  const made = await create({ flags, env, confirmSession });
  if (!made.ok) {
    session?.end(made.exitCode);
    stderr.write(`${made.message}\n`);
    return made.exitCode;
  }
  const { app } = made;
  lang = resolveLanguage(app.config.language, env);
  if (!session && (!stdout.isTTY || !stdin.isTTY)) {
    stderr.write(`${t(lang, 'tui.notATerminal')}\n`);
    await app.close();
    return 2;
  }
  for (const w of app.warnings) app.agent.notice?.(w, 'warn');
  if (plan.run) app.agent.notice?.(t(lang, 'setup.saved', { file: plan.file }));

  session ??= openSession(io);
  const shown = await session.show<number>((finish) => (
    <App
      controller={app.agent}
      loop={app.agent}
      workspace={app.config.workspace}
      lang={lang}
      onExit={() => finish(0)}
      onRedraw={() => session?.clearScreen()}
      mouse={app.config.mouse !== false}
      onMouse={(on, toggled) => {
        session?.setMouse(on);
        if (toggled) app.agent.notice?.(t(lang, on ? 'mouse.on' : 'mouse.off'));
      }}
    />
  ));
  const code = shown.ended ? shown.code : 0;
  session.end(code);
  await within(app.close(), deps.closeTimeoutMs ?? 3000);
  return code;
}
