import type { CliFlags } from './args.js';

/** What the program is handed: its arguments, environment and streams. */
export interface MainDeps {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
  /** Opens the full-screen app; injected so the headless core never imports the UI. */
  runTui?(flags: CliFlags): Promise<number>;
}
