/**
 * The crash record, as the attack: a reply of 40 file-changing calls, and the process is
 * killed with SIGKILL at a random moment while they run (20 times, seeded). After each
 * kill the app is started again on the same home: the reply is in the history, every
 * change on disk has its call's result there, and `/undo all` brings the tree back.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/createApp.js';
import type { HistoryMessage } from '../../src/core/messages.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { waitForStore, waitUntil } from '../helpers/waitFor.js';
import { treeOf } from './fixture.js';

const KILLS = Number(process.env.KILLS ?? 20);
const CALLS = 40;
/** Runs at once: each has its own workspace and home; the work is mostly process start-up. */
const PARALLEL = 4;
const CHILD = path.join(import.meta.dirname, 'crashChild.ts');
const BIG = 'x'.repeat(20_000);

/** Call `i` and the one path it changes, with how to tell from disk that it did. */
function callFor(i: number): { text: string; changed: (ws: string) => boolean } {
  const at = (ws: string, rel: string): string => path.join(ws, ...rel.split('/'));
  switch (i % 6) {
    case 0:
      return {
        text: `create("new/f${i}.txt", "${BIG}")`,
        changed: (ws) => fs.existsSync(at(ws, `new/f${i}.txt`)),
      };
    case 1:
      return {
        text: `edit("e${i}.txt", "old ${i}", "new ${i}")`,
        changed: (ws) => fs.readFileSync(at(ws, `e${i}.txt`), 'utf8') !== `old ${i}\n`,
      };
    case 2:
      return { text: `mkdir("d${i}/sub")`, changed: (ws) => fs.existsSync(at(ws, `d${i}`)) };
    case 3:
      return {
        text: `copy("big${i}.txt", "c${i}.txt")`,
        changed: (ws) => fs.existsSync(at(ws, `c${i}.txt`)),
      };
    case 4:
      return {
        text: `move("m${i}.txt", "moved/m${i}.txt")`,
        changed: (ws) => !fs.existsSync(at(ws, `m${i}.txt`)),
      };
    default:
      return { text: `delete("x${i}.txt")`, changed: (ws) => !fs.existsSync(at(ws, `x${i}.txt`)) };
  }
}

function seed(ws: string): void {
  for (let i = 0; i < CALLS; i++) {
    fs.writeFileSync(path.join(ws, `e${i}.txt`), `old ${i}\n`);
    fs.writeFileSync(path.join(ws, `big${i}.txt`), BIG);
    fs.writeFileSync(path.join(ws, `m${i}.txt`), `move me ${i}`, { mode: 0o755 });
    fs.chmodSync(path.join(ws, `m${i}.txt`), 0o755);
    fs.writeFileSync(path.join(ws, `x${i}.txt`), `delete me ${i}`);
  }
}

/** The last assistant reply and the results after it, from the history file on disk. */
function historyOf(home: string): HistoryMessage[] {
  const sessions = path.join(home, 'data', 'sessions');
  const out: HistoryMessage[] = [];
  for (const id of fs.readdirSync(sessions)) {
    const file = path.join(sessions, id, 'history.jsonl');
    if (!fs.existsSync(file)) continue;
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      try {
        const r = JSON.parse(line) as { t: string; m: HistoryMessage };
        if (r.t === 'msg') out.push(r.m);
      } catch {
        // a torn last line: the history loader repairs it
      }
    }
  }
  return out;
}

/** Starts the app, kills it with SIGKILL once `results` results are saved. */
async function runAndKill(
  ws: string,
  home: string,
  env: NodeJS.ProcessEnv,
  results: number,
): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ws, home, 'go'], {
    env: { ...env, PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const saved = (): number => {
    const h = historyOf(home);
    const reply = h.findIndex((m) => m.calls === CALLS);
    return reply === -1 ? -1 : h.slice(reply + 1).filter((m) => m.callIndex !== undefined).length;
  };
  // Poll as fast as the event loop allows: the kill lands at whatever the child is doing then.
  await waitUntil(
    () => {
      if (fs.existsSync(path.join(home, 'data', 'sessions')) && saved() >= results) return true;
      if (child.exitCode !== null) throw new Error(`the child exited before the kill: ${stderr}`);
      return false;
    },
    `${results} saved results`,
    { timeoutMs: 60_000, intervalMs: 0, detail: () => `no progress: ${stderr}` },
  );
  child.kill('SIGKILL');
  await exited;
}

describe('kill -9 during a reply of 40 tool calls', () => {
  /** Results the restart had to write (calls the kill cut off), over all runs. */
  let recovered = 0;

  async function once(run: number, results: number): Promise<void> {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-kill9-'));
    // One server per run: a child killed late may ask for a second reply.
    const server: ScriptedServer = await startScriptedServer();
    try {
      const ws = path.join(base, 'ws');
      const home = path.join(base, 'home');
      fs.mkdirSync(ws);
      fs.mkdirSync(home);
      seed(ws);
      // delete asks by default (print mode would decline it); all 40 calls run (the cap is 25).
      fs.writeFileSync(
        path.join(home, 'config.json'),
        JSON.stringify({ approval: { destructive: 'auto' }, maxToolCallsPerReply: CALLS }),
      );
      const before = await treeOf(ws);
      const calls = Array.from({ length: CALLS }, (_, i) => callFor(i));
      const model = `kill9-${run}`;
      const reply = calls.map((c) => `[TOOL] ${c.text} [/TOOL]`).join('\n');
      // Large chunks: the default ~4-character chunks would make streaming the reply the test.
      const chunks = reply.match(/[\s\S]{1,65536}/g) ?? [];
      server.push({ kind: 'stream', content: chunks });
      const env = { COGITO_API_KEY: 'k', COGITO_BASE_URL: server.url, COGITO_MODEL: model };
      await runAndKill(ws, home, env, results);

      // Restart: the first turn's RESTORE finishes the crash record (here a read-only
      // command's turn, so the tree is checked before anything else changes it).
      const made = await createApp({
        flags: { home, workspace: ws },
        env,
        initialState: 'AWAITING_INPUT',
      });
      if (!made.ok) throw new Error(made.message);
      const app = made.app;
      try {
        app.agent.start();
        app.agent.send({ type: 'submit', text: '/changes' });
        await waitForStore(app.agent.store, (s) => s.traces.length > 0, 'the first turn', 20_000);
        const history = historyOf(home);
        const replyAt = history.findIndex((m) => m.calls === CALLS);
        expect(replyAt, `run ${run}: the reply is in the history`).toBeGreaterThan(-1);
        const results = history.slice(replyAt + 1).filter((m) => m.role === 'tool');
        recovered += results.filter((m) => /by a crash/.test(m.content)).length;
        // Every call has exactly one result now, and every change on disk an ok result.
        expect(results.map((m) => m.callIndex)).toEqual(calls.map((_, i) => i));
        for (const [i, c] of calls.entries()) {
          if (!c.changed(ws)) continue;
          expect(results[i]!.content, `run ${run}, call ${i} changed the disk`).toMatch(
            /^\[RESULT .*\] ok/,
          );
        }
        app.agent.send({ type: 'submit', text: '/undo all' });
        await waitForStore(
          app.agent.store,
          (s) => s.notices.some((n) => /^Undone|^Nothing to undo/.test(n.text)),
          'the undo report',
          20_000,
        );
        expect(await treeOf(ws), `run ${run}`).toEqual(before);
      } finally {
        await app.close();
      }
    } finally {
      await server.close();
      fs.rmSync(base, { recursive: true, force: true });
    }
  }

  it(`${KILLS} random kills: the reply and every change's result survive, and undo all restores`, async () => {
    let state = 12345;
    const rand = (): number => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const plan = Array.from({ length: KILLS }, () => Math.floor(rand() * CALLS));
    for (let first = 0; first < KILLS; first += PARALLEL) {
      await Promise.all(plan.slice(first, first + PARALLEL).map((k, j) => once(first + j, k)));
    }
    // The kills really cut calls off (every run kills before the last result is saved).
    expect(recovered).toBeGreaterThanOrEqual(KILLS);
  }, 420_000);
});
