/**
 * The crash test's run, shared by bench/crashKill.ts (50 kills) and
 * test/durability/crashKill.test.ts (a few): a busy background agent (`cogito start`: slow
 * streamed replies from the scripted server, each with a file written and a reminder set,
 * `cogito send` messages arriving all the while) is killed with SIGKILL at random moments
 * and started again. It counts what the README promises: every message `send` acknowledged
 * ends up in the history once, and every state file the kill left reads.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { readEntry } from '../../src/daemon/registry.js';
import { startScriptedServer, type RecordedRequest } from '../../test/helpers/scriptedServer.js';
import type { Step } from '../../test/helpers/scriptedServer.js';
import { COGITO, makeHome } from './appEnv.js';
import { mulberry32 } from '../../test/helpers/rng.js';

export interface CrashKillOptions {
  kills: number;
  /** Seed of the random moments (the same seed, the same schedule of kills and sends). */
  seed?: number;
  /**
   * The kill comes up to this long (ms) after the run's first acknowledged message (a `cogito
   * send` process takes most of a second to start; some must be answered before the kill).
   */
  maxKillDelayMs?: number;
  log?(line: string): void;
}

export interface CrashKillFigures {
  kills: number;
  /** Messages `cogito send` acknowledged (exit 0, "Queued"). */
  acknowledged: number;
  /** Sends that failed (the agent died under them): not acknowledged, so not owed. */
  refused: number;
  /** Acknowledged messages never in the history after the last start. */
  lost: number;
  /** Acknowledged messages in the history more than once. */
  duplicated: number;
  /** State files that did not read as the kill left them (JSON, or a JSONL line before the last). */
  unreadableFiles: number;
  /** JSONL files whose last line a kill cut (the loaders repair those; counted, not a failure). */
  tornTails: number;
  /** Chat requests the agent made in all. */
  requests: number;
  /** What each unreadable file was, and each lost or duplicated message. */
  problems: string[];
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** What the model says: a tool step (a file and a reminder) after a user turn, then [WAIT]. */
function reply(req: RecordedRequest): Step {
  const messages = (req.body as { messages: { role: string; content: unknown }[] }).messages;
  const last = messages.at(-1);
  const text = typeof last?.content === 'string' ? last.content : '';
  const afterTools = last?.role === 'tool' || /\[RESULT|result of/i.test(text);
  const n = req.index;
  const content = afterTools
    ? `Done with step ${n}: the note is written and the reminder set. [WAIT]`
    : `Working on it, step ${n}: writing a note first.\n` +
      `[TOOL] create("notes/n${n}.md", "note ${n}\\n") [/TOOL]\n` +
      `[TOOL] remind("2h", "look at note ${n}") [/TOOL]`;
  return { kind: 'stream', content, chunkDelayMs: 15 };
}

interface Ran {
  code: number | null;
  out: string;
  err: string;
}

export async function runCrashKill(opts: CrashKillOptions): Promise<CrashKillFigures> {
  const random = mulberry32(opts.seed ?? 40);
  const log = opts.log ?? (() => {});
  const maxDelay = opts.maxKillDelayMs ?? 3000;
  const server = await startScriptedServer();
  server.setDefault(reply);
  const h = makeHome(
    server.url,
    { watch: { maxWakesPerHour: 0 }, approval: { write: 'auto' } },
    'cogito-crashkill-',
  );
  const env = h.env();
  const cogito = (args: string[]): Promise<Ran> =>
    new Promise((resolve) => {
      const child = spawn(COGITO[0]!, [...COGITO.slice(1), ...args], {
        cwd: h.workspace,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('close', (code) => resolve({ code, out, err }));
    });
  const acked: string[] = [];
  let refused = 0;
  const problems: string[] = [];
  let unreadableFiles = 0;
  let tornTails = 0;
  const start = async (): Promise<number> => {
    const r = await cogito(['start', '--think-interval', '2000']);
    const entry = readEntry(h.home, fs.realpathSync(h.workspace));
    if (r.code !== 0 || !entry)
      throw new Error(`cogito start failed (${r.code}): ${r.err}${r.out}`);
    return entry.pid;
  };
  try {
    for (let k = 0; k < opts.kills; k += 1) {
      const pid = await start();
      // Messages arrive all the while (up to three `cogito send` at once); the kill comes at
      // a random moment after the first of this run is acknowledged, with others in flight.
      const sends = new Set<Promise<void>>();
      const ackedBefore = acked.length;
      let j = 0;
      let killAt = Number.POSITIVE_INFINITY;
      const giveUp = Date.now() + 30_000;
      while (Date.now() < killAt && Date.now() < giveUp) {
        if (killAt === Number.POSITIVE_INFINITY && acked.length > ackedBefore)
          killAt = Date.now() + maxDelay * random();
        if (sends.size < 3) {
          const text = `crash-test message ${k}.${j++}`;
          const p: Promise<void> = cogito(['send', text]).then((r) => {
            sends.delete(p);
            if (r.code === 0 && r.out.includes('Queued')) acked.push(text);
            else {
              refused += 1;
              if (process.env.CK_DEBUG) log(`refused: ${r.code} ${r.out} ${r.err}`);
            }
          });
          sends.add(p);
        }
        await sleep(Math.max(0, Math.min(killAt - Date.now(), 50 + 250 * random())));
      }
      killGroup(pid);
      await Promise.all([...sends]);
      const files = checkFiles(path.join(h.home, 'data'));
      unreadableFiles += files.unreadable.length;
      tornTails += files.torn;
      problems.push(...files.unreadable.map((f) => `kill ${k + 1}: ${f}`));
      log(
        `kill ${k + 1}/${opts.kills}: ${acked.length} acknowledged so far, ${server.requests.length} requests, ` +
          `${files.unreadable.length} unreadable, ${files.torn} torn tails`,
      );
    }
    // The last start delivers what is owed; then a graceful stop.
    await start();
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline && acked.some((t) => countInHistory(h.home, t) === 0)) {
      await sleep(250);
    }
    await cogito(['stop']);
    const final = checkFiles(path.join(h.home, 'data'));
    unreadableFiles += final.unreadable.length;
    problems.push(...final.unreadable.map((f) => `after the last stop: ${f}`));
    let lost = 0;
    let duplicated = 0;
    for (const text of acked) {
      const n = countInHistory(h.home, text);
      if (n === 0) {
        lost += 1;
        problems.push(`lost: "${text}"`);
      } else if (n > 1) {
        duplicated += 1;
        problems.push(`${n} times in the history: "${text}"`);
      }
    }
    return {
      kills: opts.kills,
      acknowledged: acked.length,
      refused,
      lost,
      duplicated,
      unreadableFiles,
      tornTails,
      requests: server.requests.length,
      problems,
    };
  } finally {
    const entry = readEntry(h.home, fs.realpathSync(h.workspace));
    if (entry) killGroup(entry.pid);
    await server.close();
    h.cleanup();
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}

/** User messages with exactly `text` in the history files of the home's sessions. */
export function countInHistory(home: string, text: string): number {
  const sessions = path.join(home, 'data', 'sessions');
  let n = 0;
  for (const id of safeList(sessions)) {
    const file = path.join(sessions, id, 'history.jsonl');
    let body = '';
    try {
      body = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of body.split('\n')) {
      if (!line.includes(text)) continue;
      try {
        const r = JSON.parse(line) as { t?: string; m?: { role?: string; content?: string } };
        if (r.t === 'msg' && r.m?.role === 'user' && r.m.content === text) n += 1;
      } catch {
        // A torn line: not a saved message.
      }
    }
  }
  return n;
}

function safeList(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * Every state file under `dir` as a kill left it: a `.json` must parse whole; a `.jsonl`
 * must parse line by line, except a last line the kill cut mid-write (counted as torn: the
 * loaders repair it). Copies kept aside (`.corrupt-`), temporary files, logs, sockets and the
 * undo store's content blobs are not state files read as JSON.
 */
export function checkFiles(dir: string): { unreadable: string[]; torn: number } {
  const unreadable: string[] = [];
  let torn = 0;
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'undo') walk(p);
        continue;
      }
      if (!e.isFile() || e.name.includes('.corrupt-') || e.name.startsWith('.')) continue;
      if (e.name.includes('.tmp')) continue;
      let text: string;
      try {
        text = fs.readFileSync(p, 'utf8');
      } catch (err) {
        unreadable.push(`${path.relative(dir, p)}: ${(err as Error).message}`);
        continue;
      }
      if (e.name.endsWith('.json')) {
        try {
          JSON.parse(text);
        } catch (err) {
          unreadable.push(`${path.relative(dir, p)}: ${(err as Error).message}`);
        }
      } else if (e.name.endsWith('.jsonl')) {
        const lines = text.split('\n');
        const tailCut = !text.endsWith('\n') && text !== '';
        for (const [i, line] of lines.entries()) {
          if (line.trim() === '') continue;
          try {
            JSON.parse(line);
          } catch {
            if (tailCut && i === lines.length - 1) torn += 1;
            else unreadable.push(`${path.relative(dir, p)}: line ${i + 1} does not parse`);
          }
        }
      }
    }
  };
  walk(dir);
  return { unreadable, torn };
}
