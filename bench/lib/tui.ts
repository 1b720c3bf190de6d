/**
 * The full-screen app, started for real (`node bin/cogito.js`) in a pseudo-terminal against a
 * scripted server, with the helpers the terminal benchmarks share.
 */
import { spawnSync } from 'node:child_process';
import { startScriptedServer, type ScriptedServer } from '../../test/helpers/scriptedServer.js';
import { COGITO, ROOT, makeHome, type BenchHome } from './appEnv.js';
import { PtyApp } from './ptyApp.js';

export const COLS = 100;
export const ROWS = 30;

/** The whole screen has been drawn: the status bar, and the key hints on the last row. */
export function isFullFrame(text: string): boolean {
  return text.includes('● ') && /Input[\s\S]*quit/.test(text);
}

export interface Tui {
  app: PtyApp;
  server: ScriptedServer;
  home: BenchHome;
  /**
   * Waits for `label` (e.g. "Your turn") in the output written after time `after`; resolves
   * with the time of the chunk that completed it.
   */
  waitForText(label: string, after: number, timeoutMs?: number): Promise<number>;
  /** Quits (Ctrl+C, then signals if needed) and removes the temporary home. */
  close(): Promise<void>;
}

export interface TuiOptions {
  /** Extra CLI flags, e.g. `['--paused']`. */
  args?: string[];
  /** config.json contents. */
  config?: Record<string, unknown>;
  server?: ScriptedServer;
  /** The command to start instead of the checkout's (e.g. a globally installed `cogito`). */
  cmd?: string[];
  /** Called with the home before the app starts (e.g. to write a session into it). */
  prepare?(home: BenchHome): void | Promise<void>;
  /**
   * `cogito start` first, so the screen attaches to a background agent over its socket
   * (issue #27) instead of running its own; `close` stops that agent.
   */
  attached?: boolean;
}

/** Whether this benchmark run measures an attached screen (`--attached`). */
export const ATTACHED = process.argv.includes('--attached');

/** Runs `cogito <args>` in the bench home to its end; throws with its output if it fails. */
export function runCogito(
  args: string[],
  home: BenchHome,
  opts: Pick<TuiOptions, 'cmd'> = {},
): void {
  const r = spawnSync((opts.cmd ?? COGITO)[0]!, [...(opts.cmd ?? COGITO).slice(1), ...args], {
    env: home.env(),
    cwd: home.workspace,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(`cogito ${args.join(' ')} failed: ${r.stderr}${r.stdout}`);
}

export async function startTui(opts: TuiOptions = {}): Promise<Tui> {
  const server = opts.server ?? (await startScriptedServer());
  const home = makeHome(server.url, opts.config ?? {});
  await opts.prepare?.(home);
  if (opts.attached) runCogito(['start', ...(opts.args ?? [])], home, opts);
  const app = new PtyApp([...(opts.cmd ?? COGITO), ...(opts.args ?? [])], {
    env: home.env(),
    cwd: home.workspace,
    cols: COLS,
    rows: ROWS,
  });
  await app.ready();
  if (opts.attached) {
    // An attached screen opens on the "while you were away" digest: any key closes it.
    await app.waitFor((s) => s.includes('While you were away'), 'the digest', {
      from: 0,
      timeoutMs: 60_000,
    });
    await app.send('\x1b');
  }
  const waitForText = async (label: string, after: number, timeoutMs = 20_000): Promise<number> => {
    const res = await app.waitFor((s) => s.includes(label), `"${label}" on screen`, {
      from: app.indexAfter(after),
      timeoutMs,
    });
    return res.t;
  };
  return {
    app,
    server,
    home,
    waitForText,
    async close() {
      if (app.exitCode === undefined) {
        // Ctrl+C cancels a running turn, a second one quits; then signals as a fallback.
        for (let i = 0; i < 3 && app.exitCode === undefined; i++) {
          await app.send('\x03');
          await Promise.race([app.exit(), new Promise((r) => setTimeout(r, 1000))]);
        }
        if (app.exitCode === undefined) await app.stop('SIGTERM', 3000);
      }
      await app.stop();
      if (opts.attached) runCogito(['stop'], home, opts);
      if (!opts.server) await server.close();
      home.cleanup();
    },
  };
}

export { ROOT };
