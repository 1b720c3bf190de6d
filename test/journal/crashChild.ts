/**
 * The process the kill -9 test kills: the real app (createApp, the journaled tools, the
 * crash record) in print mode, without the screen, so it starts fast. Arguments:
 * `<workspace> <home> <prompt>`; the scripted server comes from COGITO_BASE_URL.
 */
import { createApp } from '../../src/app/createApp.js';
import { runPrintMode } from '../../src/cli/printMode.js';

const [workspace, home, prompt] = process.argv.slice(2);
const made = await createApp({
  flags: { home, workspace, thinkIntervalMs: 0 },
  initialState: 'AWAITING_INPUT',
});
if (!made.ok) {
  process.stderr.write(`${made.message}\n`);
  process.exit(made.exitCode);
}
const run = runPrintMode(made.app.agent, {
  prompt: prompt ?? 'go',
  json: false,
  maxCycles: 2,
  out: process.stdout,
  err: process.stderr,
});
const result = await run.done;
await made.app.close();
process.exit(result.exitCode);
