/**
 * `cogito start --foreground`: the folder's agent with no screen, in this process, until it is
 * asked to stop (over the socket, SIGTERM, SIGINT, /exit). Built like the full-screen app
 * (createApp with the always-on behaviour: pacing, watcher, reminders, budgets), resuming the
 * folder's current session; the socket is its only door. `cogito start` runs this in a
 * detached child; systemd and launchd run it directly and supervise it.
 */
import { createApp } from '../app/createApp.js';
import { stopFailureLine, type StopFailure } from '../app/disposers.js';
import type { StartFlags } from './commandArgs.js';
import { agentLogFile, socketPathFor } from './places.js';
import { removeEntry, writeEntry, type RegistryEntry } from './registry.js';
import { startSocketServer, type SocketServer } from './socketServer.js';
import { appPort } from './appPort.js';
import type { DoorEvent } from './agentPort.js';
import { stripTerminalControls } from '../safety/terminalFilter.js';
import { attachNotifier } from '../notify/attach.js';
import { guardCrashes } from './crashGuard.js';
import { processStartToken } from '../core/processIdentity.js';

const withToken = (startToken: string | undefined) => (startToken ? { startToken } : {});

export interface RunAgentDeps {
  env: NodeJS.ProcessEnv;
  stderr: NodeJS.WritableStream;
}

/**
 * Runs the agent until it stops; resolves with the exit code (3: the folder is taken, 1: it
 * stopped on an error). What needs the user reaches them by the desktop's notification (or
 * `notify.command`) while no screen attached over the socket has focus; an error that stops
 * the agent is the last notification.
 */
export async function runBackgroundAgent(flags: StartFlags, io: RunAgentDeps): Promise<number> {
  const say = (line: string): void => void io.stderr.write(`${new Date().toISOString()} ${line}\n`);
  let stopping: Promise<void> | undefined;
  let stop = (): Promise<void> => Promise.resolve();
  const requestStop = (why: string): void => {
    if (stopping) return;
    say(`stopping: ${why}`);
    stopping = stop();
  };
  const made = await createApp({
    // The folder's current session, as the full-screen app opens it (like -c).
    flags: { ...flags, newSession: false },
    env: io.env,
    background: true,
    holder: 'background',
    exit: () => requestStop('/exit'),
  });
  if (!made.ok) {
    say(made.message);
    return made.exitCode;
  }
  const { app } = made;
  const { workspace } = app;
  // The folder's own process: a service manager starts it elsewhere (systemd trims a
  // WorkingDirectory= value, so the unit names the folder only in --workspace).
  try {
    process.chdir(workspace);
  } catch (err) {
    say(`warning: cannot change to ${workspace}: ${String(err)}`);
  }
  const report = (f: StopFailure): void => say(stopFailureLine(f).trimEnd());
  const started = new Date();
  const socketPath = socketPathFor(app.home, workspace, io.env);
  let server: SocketServer | undefined;
  const { notifier } = attachNotifier(app.agent, {
    config: app.config.notify,
    env: io.env,
    workspace,
    // Until the socket is open no screen can be attached: the desktop it is.
    remoteScreens: () => server?.screens() ?? 'none',
  });
  const port = appPort(app);
  // The log says what the agent did while nobody watched: states, turns, notices, errors.
  port.subscribe((e) => {
    const line = logLine(e);
    if (line) say(line);
  });
  try {
    server = await startSocketServer({
      socketPath,
      port,
      workspace,
      started,
      onStop: () => requestStop('asked over the socket'),
    });
  } catch (err) {
    const why = `cannot open the socket: ${err instanceof Error ? err.message : String(err)}`;
    say(why);
    notifier.stopped(why);
    await notifier.settled();
    (await app.close()).forEach(report);
    return 3;
  }
  const open = server;
  const entry: RegistryEntry = {
    workspace,
    pid: process.pid,
    socket: socketPath,
    started: started.toISOString(),
    log: agentLogFile(app.home, workspace),
    // Who this pid is: after a crash the pid may pass to a stranger, which must not be trusted.
    ...withToken(processStartToken(process.pid)),
  };
  writeEntry(app.home, entry);
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  stop = async () => {
    // The registry entry goes first, so nobody reaches for a socket that is closing.
    removeEntry(app.home, entry);
    await open.close();
    (await app.close()).forEach(report);
    // A notification on its way is not cut off by the exit (each has its own 5 s limit).
    await notifier.settled();
    finish();
  };
  let failed = false;
  const unguard = guardCrashes({
    onCrash: async (reason, error) => {
      failed = true;
      say(`stopped on an error: ${reason}`);
      if (error instanceof Error && error.stack) say(stripTerminalControls(error.stack));
      notifier.stopped(reason);
      requestStop('an error');
      await stopping;
    },
  });
  const unlisten = listenForSignals(requestStop, say);
  for (const w of app.warnings) say(`warning: ${w}`);
  say(
    `running in ${workspace} (pid ${process.pid}, session ${app.currentSessionId()}), socket ${socketPath}`,
  );
  app.agent.start();
  await finished;
  unlisten();
  unguard();
  say('stopped');
  return failed ? 1 : 0;
}

/** The log's line for an event worth a line, without terminal controls. */
function logLine(e: DoorEvent): string | undefined {
  const clean = (v: unknown): string => stripTerminalControls(String(v));
  switch (e.type) {
    case 'state_changed':
      return `state ${clean(e.to)}${e.reason ? ` (${clean(e.reason)})` : ''}`;
    case 'turn_end':
      return `turn ${clean(e.turnId)} ended: ${clean(e.outcome)}`;
    case 'notice':
      return `${e.level === 'warn' ? 'warning' : 'note'}: ${clean(e.text)}`;
    case 'retrying':
      return `warning: ${clean(e.text)}`;
    case 'error':
      return `error: ${clean((e.error as { message?: unknown } | undefined)?.message)}`;
    default:
      return undefined;
  }
}

/**
 * SIGTERM and SIGINT stop the agent cleanly. A closing terminal (SIGHUP) does not touch it: it
 * has none, and keeps running. Returns the removal of the listeners.
 */
function listenForSignals(stop: (why: string) => void, say: (line: string) => void): () => void {
  const handlers = {
    SIGHUP: () => say('SIGHUP ignored: the background agent keeps running'),
    SIGTERM: () => stop('SIGTERM'),
    SIGINT: () => stop('SIGINT'),
  };
  for (const [signal, handler] of Object.entries(handlers)) process.on(signal, handler);
  return () => {
    for (const [signal, handler] of Object.entries(handlers)) process.off(signal, handler);
  };
}
