// Only what parsing the command line needs is imported here: `--version` and `--help` answer
// without loading the app (the provider client, the config schemas, the tools); each mode
// loads its own part when it runs.
import { readFileSync } from 'node:fs';
import { projectRoot } from '../config/paths.js';
import { HELP, UsageError, parseCliArgs, type CliFlags } from './args.js';
import type { LoadedConfig } from '../config/load.js';
import { DaemonUsageError, parseDaemonCommand } from '../daemon/commandArgs.js';
import type { MainDeps } from './mainDeps.js';

export type { MainDeps } from './mainDeps.js';

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
      const { noModelConfigured, noModelMessage } = await import('./noModel.js');
      const refuseConfig = (c: LoadedConfig) =>
        noModelConfigured(c) ? noModelMessage() : undefined;
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
    const { describeWhere } = await import('./where.js');
    io.stdout.write(`${describeWhere({ home: flags.home, env: io.env })}\n`);
    return 0;
  }
  if (flags.downloadModel !== undefined) {
    const { runDownloadModel } = await import('./downloadModel.js');
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

  const { runPrint } = await import('./runPrint.js');
  return runPrint(flags.print, flags, io);
}
