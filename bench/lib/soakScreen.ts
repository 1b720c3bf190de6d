/**
 * The soak with the screen: the full-screen program (`node bin/cogito.js`) in a pseudo-terminal,
 * running turns back to back against the scripted server. Sampled from /proc/<pid> (VmRSS, fds,
 * sockets) each time the n-th turn's wrap-up is requested, every `every` turns.
 */
import { startScriptedServer } from '../../test/helpers/scriptedServer.js';
import { COGITO, makeHome } from './appEnv.js';
import { fdsOf } from './procStats.js';
import { PtyApp } from './ptyApp.js';
import { mb, rssOf } from './rss.js';
import { soakScript } from './soakScript.js';
import type { SoakSample } from './soakSummary.js';

export interface ScreenRun {
  samples: SoakSample[];
  exitCode: number | undefined;
}

export async function runScreenSoak(
  turns: number,
  config: Record<string, unknown>,
  every = 100,
  extraEnv: Record<string, string> = {},
  /** Stop at the first sample after this many ms, whatever `turns` says (a busy machine). */
  deadlineMs = Infinity,
): Promise<ScreenRun> {
  const server = await startScriptedServer();
  const home = makeHome(server.url, config, 'cogito-soak-screen-');
  const samples: SoakSample[] = [];
  let app: PtyApp | undefined;
  let finish!: () => void;
  const finished = new Promise<void>((r) => (finish = r));
  const started = performance.now();
  server.setDefault(
    soakScript((n) => {
      if (!app) return;
      if (n === 1 || n % every === 0) {
        const s: SoakSample = {
          turn: n,
          seconds: Math.round((performance.now() - started) / 100) / 10,
          rssMB: mb(rssOf(app.pid)),
          ...fdsOf(app.pid),
        };
        samples.push(s);
        process.stderr.write(`  screen turn ${n}: ${s.rssMB} MB, ${s.fds} fds\n`);
        // What the pty wrote is kept by the bench process only to wait for text; drop it.
        app.chunks.length = 0;
      }
      const late = performance.now() - started > deadlineMs && n % every === 0;
      if (n >= turns || late) finish();
    }),
  );
  try {
    // Under the run's `nice -n 10`, inherited through the pty helper.
    app = new PtyApp([...COGITO, '--think-interval', '0'], {
      env: home.env(extraEnv),
      cwd: home.workspace,
      cols: 100,
      rows: 30,
    });
    await app.ready();
    await Promise.race([
      finished,
      app.exit().then((code) => {
        throw new Error(`the app exited (${code}) after ${samples.at(-1)?.turn ?? 0} turns`);
      }),
    ]);
    return { samples, exitCode: app.exitCode };
  } finally {
    if (app && app.exitCode === undefined) {
      await app.send('\x03');
      await app.send('\x03');
      await Promise.race([app.exit(), new Promise((r) => setTimeout(r, 3000))]);
      if (app.exitCode === undefined) await app.stop('SIGTERM', 3000);
    }
    await server.close();
    home.cleanup();
  }
}
