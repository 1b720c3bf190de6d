/**
 * The full-screen app's root: on first run (or with --setup) the setup wizard, then the
 * agent's screen. Both are shown in one stay in the alternate screen, entered once and
 * restored exactly once on every exit path (quit, Ctrl+C, SIGTERM, SIGHUP, a crash).
 * Whatever the run starts (the screen, the app) registers its stop on one disposer stack,
 * closed when the run ends however it ends; quitting is one `exit` handed to both the
 * screen and the app.
 */
import { completeCommand } from '../src/commands/complete.js';
import type { SessionChoice } from '../src/history/sessionChoices.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import React from 'react';
import type { AppOptions } from '../src/app/createApp.js';
import { DisposerStack, stopFailureLine, type StopFailure } from '../src/app/disposers.js';
import type { ForeignSession } from '../src/app/openWorkspaceSession.js';
import type { CliFlags } from '../src/cli/args.js';
import { resolveLanguage, t, type Lang } from '../src/i18n/messages.js';
import type { SetupPlan } from '../src/setup/prepare.js';
import type { SetupServices } from '../src/setup/services.js';
import { App, type AppProps } from './App.js';
import { createLateAgent, type LateAgent } from './lateAgent.js';
import { ConfirmSession } from './ConfirmSession.js';
import type { AgentController, AgentLoop } from './controller.js';
import type { SetupOutcome } from './setup/SetupWizard.js';
import {
  openScreenSession,
  type ScreenSession,
  type ScreenSessionDeps,
  type Shown,
} from './terminal/screenSession.js';
import { inkDoor, inkNotice, type InkDoor } from './terminal/inkInternals.js';
import type { NotifySettings } from '../src/config/notifySchema.js';
import type { AgentListener } from '../src/api/events.js';
import type { BackgroundAgent } from '../src/daemon/attach.js';
import type { TuiRun } from './tuiRun.js';
import { startFlagsOf, startInBackground, whenTurnDone, type StartBackground } from './handOver.js';
import { invokedAs } from '../src/core/invokedAs.js';
import { editFile } from '../src/core/editor.js';
import { appPaths, resolveHome } from '../src/config/paths.js';
import { anyRegistered } from '../src/daemon/places.js';

/** What the screen needs of the built app (the real `App` from createApp satisfies it). */
export interface TuiApp {
  agent: AgentController &
    AgentLoop & {
      /** The agent's events, for notifications (src/notify); without it, none are sent. */
      subscribe?(listener: AgentListener): () => void;
    };
  config: {
    workspace: string;
    language: Lang | 'auto';
    mouse?: boolean;
    notify?: NotifySettings;
    /** `awayAfterMs`: the absence after which a key opens the digest. */
    awayAfterMs?: number;
  };
  warnings: readonly string[];
  /** Stops the app; resolves with the stops that failed (reported on stderr). */
  close(): Promise<readonly StopFailure[] | void>;
  /** The session in use at the end (after /new, the new one): quitting says how to resume it. */
  currentSessionId?(): string;
  /** This folder's sessions for the `/resume` picker (without it, `/resume` goes as typed). */
  listSessions?(): Promise<readonly SessionChoice[]>;
  /** Workspace paths for an `@` mention being typed (without it, no list under the input). */
  findPaths?(query: string): Promise<readonly string[]>;
  /** The skills' names: Tab completes `/name` for them after the built-in commands. */
  skillNames?: readonly string[];
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
  /** The door into Ink's internals (tests pass another Ink version's); default: the real one. */
  inkDoor?: InkDoor;
  /**
   * The folder's background agent, if one runs: the screen attaches to it. Default: the
   * real registry, but only with the real `createApp` (an injected app is the agent).
   */
  findBackgroundAgent?(flags: CliFlags, env: NodeJS.ProcessEnv): BackgroundAgent | undefined;
  /** /detach's start of the background agent (default: `cogito start`'s own). */
  startBackground?: StartBackground;
}

/** The crash's message; with --debug, its stack too. */
function describe(err: unknown, debug: boolean): string {
  if (err instanceof Error) return debug && err.stack ? err.stack : err.message;
  return String(err);
}

/** `p`'s value, or undefined when it rejects or takes longer than `ms`. */
async function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), ms)));
  const value = await Promise.race([p.catch(() => undefined), late]);
  clearTimeout(timer);
  return value;
}

async function realPrepare(flags: CliFlags, env: NodeJS.ProcessEnv): Promise<SetupPlan> {
  // The usual start: config.json is there and --setup not given, so no wizard (needsSetup),
  // decided without reading the configuration and its schemas before the first frame.
  const { home } = resolveHome({ flag: flags.home, env });
  if (!flags.setup && existsSync(appPaths(home).config)) return { run: false };
  return (await import('../src/setup/prepare.js')).prepareSetup({ flags, env });
}

async function realServices(plan: Extract<SetupPlan, { run: true }>): Promise<SetupServices> {
  return (await import('../src/setup/services.js')).createSetupServices({ home: plan.home });
}

function startRun(flags: CliFlags, deps: TuiDeps, lang: Lang): TuiRun {
  const stdin = deps.stdin ?? process.stdin;
  const stdout = deps.stdout ?? process.stdout;
  const stderr = deps.stderr ?? process.stderr;
  let session: ScreenSession | undefined;
  let exitedWith: number | undefined;
  const run: TuiRun = {
    stdin,
    stdout,
    stderr,
    env: deps.env ?? process.env,
    lang,
    root: new DisposerStack((f) => stderr.write(stopFailureLine(f))),
    get entered() {
      return session !== undefined;
    },
    screen() {
      if (session) return session;
      const io: ScreenSessionDeps = {
        stdin,
        stdout,
        stderr,
        proc: deps.proc ?? process,
        ...(deps.inkDoor ? { inkDoor: deps.inkDoor } : {}),
        describeCrash: (err) =>
          t(run.lang, 'error.unexpected', { message: describe(err, flags.debug) }),
      };
      const opened = openScreenSession(io);
      run.root.defer('the screen', () => opened.end(0));
      session = opened;
      return opened;
    },
    isTerminal: () => Boolean(stdout.isTTY && stdin.isTTY),
    exit(code) {
      exitedWith ??= code;
      session?.end(code);
    },
    get exitedWith() {
      return exitedWith;
    },
  };
  return run;
}

/** Runs the full-screen app until it quits; resolves with the process exit code. */
export async function runTui(flags: CliFlags, deps: TuiDeps = {}): Promise<number> {
  const env = deps.env ?? process.env;
  const background = await findAgent(flags, deps, env);
  if (background) {
    const run = startRun(flags, deps, resolveLanguage(background.language, env));
    // Connect while the screen's code loads: the agent builds its snapshot in its own process.
    // Left open by a screen that failed to load, the connection would keep this process up.
    const attaching = background.attach?.();
    if (attaching)
      run.root.defer('the connection to the agent', () => {
        void attaching.then(
          (a) => a.detach(),
          () => undefined,
        );
      });
    try {
      const { runAttached } = await import('./runAttached.js');
      return await runAttached(
        run,
        background.entry,
        background.notify,
        background.listSessions,
        background.findPaths,
        attaching,
      );
    } finally {
      await run.root.close();
    }
  }
  const plan: SetupPlan = deps.prepareSetup
    ? deps.prepareSetup(flags, env)
    : deps.createApp
      ? { run: false }
      : await realPrepare(flags, env);
  const run = startRun(
    flags,
    deps,
    plan.run ? plan.answers.language : resolveLanguage('auto', env),
  );
  let code: number;
  try {
    if (plan.run) {
      const wizard = await runWizard(run, deps, plan);
      if (wizard !== undefined) return wizard;
    }
    code = await runApp(run, flags, deps, plan);
  } finally {
    // Normally the screen has ended already; this stops the app, and on an error the screen too.
    await run.root.close();
  }
  // /detach: the app is closed (its lock released); the background agent takes the session.
  if (!run.handOver) return code;
  const start = deps.startBackground ?? (await import('../src/daemon/startCommand.js')).runStart;
  const { stdout, stderr, lang } = run;
  return startInBackground(start, run.handOver, { env, stdout, stderr, lang });
}

/** The folder's background agent to attach to, if one runs (see TuiDeps.findBackgroundAgent). */
async function findAgent(
  flags: CliFlags,
  deps: TuiDeps,
  env: NodeJS.ProcessEnv,
): Promise<BackgroundAgent | undefined> {
  if (deps.findBackgroundAgent) return deps.findBackgroundAgent(flags, env);
  if (deps.createApp) return undefined;
  // No agent registered in this home at all (the usual case): none to look for.
  if (!anyRegistered(resolveHome({ flag: flags.home, env }).home)) return undefined;
  const { findBackgroundAgent } = await import('../src/daemon/attach.js');
  return findBackgroundAgent(flags, { env });
}

/** The setup wizard; resolves with an exit code when the run ends there. */
async function runWizard(
  run: TuiRun,
  deps: TuiDeps,
  plan: Extract<SetupPlan, { run: true }>,
): Promise<number | undefined> {
  if (!run.isTerminal()) {
    run.stderr.write(`${t(run.lang, 'tui.notATerminal', { cmd: invokedAs() })}\n`);
    return 2;
  }
  const services = deps.setupServices ? deps.setupServices(plan) : await realServices(plan);
  // Only a first run shows it: the usual start does not load the wizard's steps (nor openai,
  // which its model check uses).
  const { SetupWizard } = await import('./setup/SetupWizard.js');
  const session = run.screen();
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
  // Quit: nothing was written, and there is nothing to start.
  if (!shown.value.saved) {
    session.end(0);
    return 0;
  }
  run.lang = shown.value.answers.language;
  session.between();
  return undefined;
}

/** --session naming another workspace's session: the user decides, before anything starts. */
async function confirmForeign(run: TuiRun, foreign: ForeignSession): Promise<boolean> {
  if (!run.isTerminal()) return false;
  const session = run.screen();
  const answer = await session.show<boolean>((finish) => (
    <ConfirmSession session={foreign} lang={run.lang} onAnswer={finish} />
  ));
  if (answer.ended) return false;
  session.between();
  return answer.value;
}

/** Builds the app, its stop on the root stack, and shows it until the run ends. */
async function runApp(
  run: TuiRun,
  flags: CliFlags,
  deps: TuiDeps,
  plan: SetupPlan,
): Promise<number> {
  const create =
    deps.createApp ??
    (async (opts: AppOptions) => (await import('../src/app/createApp.js')).createApp(opts));
  // /detach reaches the screen through the app before the app exists: a late-bound port.
  let detach = (): void => undefined;
  const early = drawsEarly(run, flags) ? showEarly(run, flags, () => detach()) : undefined;
  const made = await create({
    flags,
    env: run.env,
    confirmSession: (foreign) => confirmForeign(run, foreign),
    exit: () => run.exit(0),
    detach: () => detach(),
    // /memory edit: the screen steps aside for the editor, then draws itself again.
    editFile: (file) =>
      editFile(file, {
        env: run.env,
        lend: (meanwhile) => (run.entered ? run.screen().lend(meanwhile) : meanwhile()),
      }),
  });
  if (!made.ok) {
    if (run.entered) run.screen().end(made.exitCode);
    run.stderr.write(`${made.message}\n`);
    return made.exitCode;
  }
  const { app } = made;
  detach = () => {
    const stop = whenTurnDone(app.agent, run.lang, () => {
      run.handOver = startFlagsOf(flags, app.config.workspace);
      run.exit(0);
    });
    run.root.defer('the wait for the turn before /detach', stop);
  };
  run.root.defer('the app', async () => {
    const failures = await within(app.close(), deps.closeTimeoutMs ?? 3000);
    for (const f of failures ?? []) run.stderr.write(stopFailureLine(f));
  });
  run.lang = resolveLanguage(app.config.language, run.env);
  if (!run.entered && !run.isTerminal()) {
    run.stderr.write(`${t(run.lang, 'tui.notATerminal', { cmd: invokedAs() })}\n`);
    return 2;
  }
  for (const w of app.warnings) app.agent.send({ type: 'notice', level: 'warn', text: w });
  // An Ink the screen's fast output was not written for: Ink's own output runs, and says so.
  const ink = inkNotice(deps.inkDoor ?? inkDoor(), run.lang);
  if (ink) app.agent.send({ type: 'notice', level: 'warn', text: ink });
  if (plan.run)
    app.agent.send({ type: 'notice', text: t(run.lang, 'setup.saved', { file: plan.file }) });
  return showApp(run, app, () => detach(), early);
}

/**
 * Whether the screen is drawn before the app is made: on a terminal, unless `--session` names
 * a session that may be another folder's (the app's start may then ask the user on the screen
 * whether to continue it there, ConfirmSession, which needs the screen to itself).
 */
function drawsEarly(run: TuiRun, flags: CliFlags): boolean {
  return run.isTerminal() && flags.session === undefined;
}

/** The screen drawn while the app starts: its agent is late, its props come with the app. */
interface EarlyScreen {
  late: LateAgent;
  /** Hands the app's props and agent to the screen already shown. */
  ready(props: AppProps, agent: TuiApp['agent']): void;
  shown: Promise<Shown<never>>;
}

/**
 * Draws the ready screen at once, with a late agent that says what is still starting and
 * keeps what the user sends meanwhile (components/lateAgent.ts).
 */
function showEarly(run: TuiRun, flags: CliFlags, onDetach: () => void): EarlyScreen {
  const session = run.screen();
  const late = createLateAgent(t(run.lang, 'tui.starting'), flags.paused);
  let resolve: (props: AppProps) => void = () => undefined;
  const props = new Promise<AppProps>((r) => (resolve = r));
  const ready = (next: AppProps, agent: TuiApp['agent']): void => {
    resolve(next);
    void props.then(() => late.attach(agent));
  };
  const first: AppProps = {
    controller: late,
    loop: late,
    workspace: path.resolve(flags.workspace ?? process.cwd()),
    lang: run.lang,
    onExit: () => run.exit(0),
    onDetach,
    onRedraw: () => session.clearScreen(),
    // Off until the `mouse` setting is read: a terminal whose user turned it off never sees
    // reporting turned on.
    mouse: false,
    onMouse: (on) => session.setMouse(on),
  };
  const shown = session.show<never>(() => <LateApp first={first} props={props} />);
  return { late, ready, shown };
}

/** The app's root with the props of the moment: the early ones, then the app's. */
function LateApp(p: { first: AppProps; props: Promise<AppProps> }): React.JSX.Element {
  const [props, setProps] = React.useState(p.first);
  React.useEffect(() => {
    let live = true;
    void p.props.then((next) => live && setProps(next));
    return () => {
      live = false;
    };
  }, [p.props]);
  return <App {...props} />;
}

/** The agent's screen, until the one exit (or a signal, or a crash) ends the session. */
async function showApp(
  run: TuiRun,
  app: TuiApp,
  onDetach: () => void,
  early: EarlyScreen | undefined,
): Promise<number> {
  // Quit before the screen was up (the app's start-up asked): nothing to show.
  if (run.exitedWith !== undefined) return run.exitedWith;
  const session = run.screen();
  const { agent, config } = app;
  if (agent.subscribe) {
    const { notifyOnScreen } = await import('./screenNotifier.js');
    const notified = { subscribe: agent.subscribe.bind(agent), send: agent.send.bind(agent) };
    const { stdout, env } = run;
    const { notify, workspace } = config;
    const stop = notifyOnScreen({
      agent: notified,
      config: notify,
      workspace,
      session,
      stdout,
      env,
    });
    run.root.defer('the notifications', stop);
  }
  const props: AppProps = {
    controller: early?.late ?? app.agent,
    loop: early?.late ?? app.agent,
    workspace: app.config.workspace,
    lang: run.lang,
    onExit: () => run.exit(0),
    onDetach,
    onRedraw: () => session.clearScreen(),
    ...(app.listSessions ? { listSessions: () => app.listSessions!() } : {}),
    ...(app.findPaths ? { findPaths: (q: string) => app.findPaths!(q) } : {}),
    ...(app.skillNames?.length
      ? { complete: (prefix: string) => completeCommand(prefix, app.skillNames) }
      : {}),
    mouse: app.config.mouse !== false,
    ...(app.config.awayAfterMs !== undefined ? { awayAfterMs: app.config.awayAfterMs } : {}),
    onMouse: (on, toggled) => {
      session.setMouse(on);
      if (toggled)
        app.agent.send({ type: 'notice', text: t(run.lang, on ? 'mouse.on' : 'mouse.off') });
    },
  };
  let shown: Shown<never>;
  if (early) {
    // The app's props and its agent's store reach the screen in one render: the first frame
    // that shows the agent also has its settings (the mouse, completion, the sessions).
    early.ready(props, app.agent);
    shown = await early.shown;
  } else {
    shown = await session.show<never>(() => <App {...props} />);
  }
  // The screen is gone: say how to come back to this conversation.
  const id = app.currentSessionId?.();
  if (id) run.stderr.write(`${t(run.lang, 'tui.resumeHint', { id, cmd: invokedAs() })}\n`);
  return shown.ended ? shown.code : 0;
}
