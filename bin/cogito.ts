/**
 * The program's entry: the headless CLI from src/, with the full-screen UI from components/
 * loaded only when it is needed (print mode never pays for React and Ink).
 */
import { main } from '../src/cli/main.js';

// `npm start` runs in the package folder and keeps the folder it was typed in as INIT_CWD.
// Cogito works in the folder it is started in, so a checkout's `npm start` goes back there
// (and never takes Cogito's own folder for the user's).
if (process.env.npm_lifecycle_event === 'start' && process.env.INIT_CWD) {
  try {
    process.chdir(process.env.INIT_CWD);
  } catch {
    // Gone meanwhile: the package folder it is, and --workspace still works.
  }
}

const code = await main({
  argv: process.argv.slice(2),
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  runTui: async (flags) => {
    // Ink draws only the final frame when CI is set (it reads CI when imported). On a real
    // terminal the user wants the live screen, whatever their environment says.
    if (process.stdout.isTTY) {
      for (const key of ['CI', 'CONTINUOUS_INTEGRATION'])
        if (key in process.env) process.env[key] = 'false';
    }
    const { runTui } = await import('../components/runTui.js');
    return runTui(flags);
  },
});
// Exit explicitly: keep-alive sockets or a stray timer must not keep a finished run alive.
process.stdout.write('', () => process.exit(code));
