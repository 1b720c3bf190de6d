import type { AppOptions } from '../app/createApp.js';
import type { CliFlags } from './args.js';

/** What the program is handed: its arguments, environment and streams. */
export interface MainDeps {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
  /** The file system state files are written through (tests inject faults; default node:fs). */
  fs?: AppOptions['fs'];
  /** Opens the full-screen app; injected so the headless core never imports the UI. */
  runTui?(flags: CliFlags): Promise<number>;
}
