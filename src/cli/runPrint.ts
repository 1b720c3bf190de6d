import { createApp } from '../app/createApp.js';
import { DisposerStack, stopFailureLine, type StopFailure } from '../app/disposers.js';
import { loadConfig } from '../config/load.js';
import type { CliFlags } from './args.js';
import type { MainDeps } from './mainDeps.js';
import { noModelConfigured, noModelMessage } from './noModel.js';
import { runPrintMode, type PrintRun } from './printMode.js';

/**
 * `-p PROMPT`: the app and one print-mode run, whose stops go on one disposer stack closed
 * however the run ends (done, Ctrl+C, an error). `/exit` ends it through the root's exit.
 */
export async function runPrint(prompt: string, flags: CliFlags, io: MainDeps): Promise<number> {
  // A config that does not load is reported by createApp, with its fields and fixes.
  const loaded = loadConfig({ env: io.env, flags });
  if (loaded.ok && noModelConfigured(loaded.config)) {
    io.stderr.write(`${noModelMessage()}\n`);
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
    ...(io.fs ? { fs: io.fs } : {}),
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
      approved: flags.approve ?? [],
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
