/**
 * The soak with the screen (with `attached`, a screen attached to a background agent): the
 * production build (`node bin/cogito.js`, run by bench/soak.ts after the bundle is brought up
 * to date) in a 120×40 pseudo-terminal, a user turn typed as soon as the last one ends ("Your
 * turn"), until the scripted server has answered `total` requests. Each turn streams
 * reasoning, a Markdown reply and a `create`, then a wrap-up with [WAIT]. Checkpoints are read from /proc/<pid> and through the inspector (`soakReadings.ts`).
 */
import os from 'node:os';
import path from 'node:path';
import { startScriptedServer } from '../../test/helpers/scriptedServer.js';
import { COGITO, makeHome } from './appEnv.js';
import { activate, freePort } from './inspector.js';
import { PtyApp } from './ptyApp.js';
import {
  checkpointTaker,
  checkpointsFor,
  readCheckpoint,
  type Checkpoint,
} from './soakReadings.js';
import { soakScript } from './soakScript.js';
import { runCogito } from './tui.js';

export interface SoakRun {
  checkpoints: Checkpoint[];
  turns: number;
  requests: number;
  seconds: number;
}

export const load1 = (): number => Math.round(os.loadavg()[0]! * 100) / 100;

/** The message typed for turn `n`. */
export const userMessage = (n: number): string => `Note ${n} for the soak: one file, please.`;

export async function runScreenSoak(
  total: number,
  config: Record<string, unknown>,
  extraEnv: Record<string, string> = {},
  /** A user's pause before each message (0: typed at once, turns back to back). */
  pauseMs = 0,
  /**
   * `cogito start` first: the screen attaches to that background agent over its socket and
   * only mirrors it; the readings are the screen's process (the agent's are `soakAgent.ts`).
   */
  attached = false,
): Promise<SoakRun> {
  const server = await startScriptedServer();
  const home = makeHome(server.url, config, 'cogito-soak-screen-');
  const port = await freePort();
  const startedAt = performance.now();
  let app: PtyApp | undefined;
  let turnEnded: (() => void) | undefined;
  let requests = 0;
  const taker = checkpointTaker(checkpointsFor(total), (n) =>
    readCheckpoint(app!.pid, port, n, startedAt, load1),
  );
  server.setDefault(
    soakScript(() => turnEnded?.(), {
      userTurns: true,
      onRequest: (n) => {
        requests = n;
        taker.onRequest(n);
      },
    }),
  );
  let finished = false;
  void taker.reached.then(() => (finished = true));
  let turns = 0;
  try {
    // stderr to a file: the inspector's "Debugger attached" lines would land on the screen.
    const log = path.join(home.dir, 'stderr.log');
    // Without the screen's inspector port: the readings are the screen's.
    if (attached) runCogito(['start'], home);
    app = new PtyApp(['sh', '-c', `exec "$0" "$@" 2>>'${log}'`, ...COGITO], {
      env: home.env({ ...extraEnv, NODE_OPTIONS: `--inspect-port=127.0.0.1:${port}` }),
      cwd: home.workspace,
      cols: 120,
      rows: 40,
    });
    await app.ready();
    if (attached) {
      // The attached screen opens on the "while you were away" digest: any key closes it.
      await app.waitFor((t) => t.includes('While you were away'), 'the digest', {
        from: 0,
        timeoutMs: 60_000,
      });
      await app.send('\x1b');
    }
    const exited = app.exit().then((code) => {
      throw new Error(`the app exited (${code}) after ${turns} turns, ${requests} requests`);
    });
    const step = async (): Promise<void> => {
      await app!.waitFor((t) => t.includes('Your turn'), 'Your turn', { timeoutMs: 60_000 });
      if (turns === 0) await activate(app!.pid, port);
      if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
      turns += 1;
      app!.chunks.length = 0;
      const text = userMessage(turns);
      await app!.send(text);
      await app!.waitFor((t) => t.includes(text.slice(-24)), 'the typed message', {
        timeoutMs: 30_000,
      });
      const ended = new Promise<void>((r) => (turnEnded = r));
      // Output from here on is this turn's: "Your turn" after the wrap-up is its end.
      app!.chunks.length = 0;
      await app!.send('\r');
      await ended;
      // The wrap-up is requested, not answered: the next "Your turn" is this turn's end.
      app!.chunks.length = 0;
    };
    while (!finished) await Promise.race([step(), exited]);
    const checkpoints = await taker.done();
    return {
      checkpoints,
      turns,
      requests,
      seconds: Math.round((performance.now() - startedAt) / 100) / 10,
    };
  } finally {
    if (app && app.exitCode === undefined) {
      await app.send('\x03');
      await app.send('\x03');
      await Promise.race([app.exit(), new Promise((r) => setTimeout(r, 3000))]);
      if (app.exitCode === undefined) await app.stop('SIGTERM', 3000);
    }
    // The quit keys stop an attached screen's agent too; this is for a screen that failed
    // (said, not thrown: a throw here would hide why the run failed).
    if (attached) {
      try {
        runCogito(['stop'], home);
      } catch (err) {
        process.stderr.write(`${String(err)}\n`);
      }
    }
    await server.close();
    home.cleanup();
  }
}
