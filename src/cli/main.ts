import { readFileSync } from 'node:fs';
import { createApp } from '../app/createApp.js';
import { projectRoot } from '../config/paths.js';
import { HELP, UsageError, parseCliArgs, type CliFlags } from './args.js';
import { runDownloadModel } from './downloadModel.js';
import { runPrintMode, type PrintRun } from './printMode.js';
import { DisposerStack, stopFailureLine, type StopFailure } from '../app/disposers.js';
import { describeWhere } from './where.js';
import { loadConfig, type LoadedConfig } from '../config/load.js';
import { NO_MODEL_MESSAGE, noModelConfigured } from './noModel.js';
import { DaemonUsageError, parseDaemonCommand } from '../daemon/commandArgs.js';

export interface MainDeps {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
  /** Opens the full-screen app; injected so the headless core never imports the UI. */
  runTui?(flags: CliFlags): Promise<number>;
}

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(`${projectRoot()}/package.json`, 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The program: returns the exit code instead of exiting, so tests can call it. */
export async function main(io: MainDeps): Promise<number> {
  let flags: CliFlags;
  try {
    // `cogito start|status|stop|service`: the background agent's subcommands.
    const daemon = parseDaemonCommand(io.argv);
    if (daemon) {
      const refuseConfig = (c: LoadedConfig) =>
        noModelConfigured(c) ? NO_MODEL_MESSAGE : undefined;
      // Loaded only for a subcommand: the screen and -p do not pay for the background agent.
      const { runDaemonCommand } = await import('../daemon/commands.js');
      return await runDaemonCommand(daemon, { ...io, refuseConfig });
    }
    flags = parseCliArgs(io.argv);
  } catch (err) {
    if (err instanceof UsageError || err instanceof DaemonUsageError) {
      io.stderr.write(`cogito: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  if (flags.help) {
    io.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (flags.version) {
    io.stdout.write(`cogito ${version()}\n`);
    return 0;
  }
  if (flags.where) {
    io.stdout.write(`${describeWhere({ home: flags.home, env: io.env })}\n`);
    return 0;
  }
  if (flags.downloadModel !== undefined) {
    const code = await runDownloadModel(flags.downloadModel, {
      env: io.env,
      stderr: io.stderr,
      home: flags.home,
    });
    // With -p as well, the prompt runs on the model just configured.
    if (code !== 0 || flags.print === undefined) return code;
  }
  if (flags.print === undefined) {
    if (!io.runTui) {
      io.stderr.write(
        'cogito: the full-screen app is not available here; use -p "PROMPT" for print mode\n',
      );
      return 2;
    }
    return io.runTui(flags);
  }

  return runPrint(flags.print, flags, io);
}

/**
 * `-p PROMPT`: the app and one print-mode run, whose stops go on one disposer stack closed
 * however the run ends (done, Ctrl+C, an error). `/exit` ends it through the root's exit.
 */
async function runPrint(prompt: string, flags: CliFlags, io: MainDeps): Promise<number> {
  // A config that does not load is reported by createApp, with its fields and fixes.
  const loaded = loadConfig({ env: io.env, flags });
  if (loaded.ok && noModelConfigured(loaded.config)) {
    io.stderr.write(`${NO_MODEL_MESSAGE}\n`);
    return 2;
  }
  const report = (f: StopFailure): void => void io.stderr.write(stopFailureLine(f));
  let run: PrintRun | undefined;
  const made = await createApp({
    // A script's runs do not leak into each other: each is a new session unless it says
    // --continue (this folder's latest) or --session ID.
    // Turns after the answer (only with --max-cycles) run back to back, not paced.
    flags: {
      ...flags,
      newSession: !flags.continue && flags.session === undefined,
      thinkIntervalMs: flags.thinkIntervalMs ?? 0,
    },
    env: io.env,
    initialState: 'AWAITING_INPUT',
    background: false,
    // Beside a background agent of this folder, a new session's run needs no folder lock.
    holder: 'print',
    exit: () => run?.exit(),
  });
  if (!made.ok) {
    io.stderr.write(`${made.message}\n`);
    return made.exitCode;
  }
  const { app } = made;
  const root = new DisposerStack(report);
  root.defer('the app', async () => (await app.close()).forEach(report));
  try {
    for (const w of app.warnings) io.stderr.write(`warning: ${w}\n`);
    const started = runPrintMode(app.agent, {
      prompt,
      json: flags.json,
      verbose: flags.verbose,
      // The prompt's own turn is the run: its answer is the answer. --max-cycles N lets the
      // agent go on working by itself for up to N turns in all.
      maxCycles: flags.maxCycles ?? 1,
      out: io.stdout,
      err: io.stderr,
    });
    run = started;
    // Ctrl+C aborts the request in flight (the connection closes) and exits cleanly.
    const onSignal = (): void => started.cancel();
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, onSignal);
      root.defer(`the ${signal} listener`, () => process.off(signal, onSignal));
    }
    return (await started.done).exitCode;
  } finally {
    await root.close();
  }
}
