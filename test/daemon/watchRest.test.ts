/**
 * Issue #42 with a real background agent (`cogito start` as a child process, the real
 * watcher, the scripted server as the model) in real time: "nothing to do" rests at zero
 * requests and a new file wakes it; a question it asked on its own is not interrupted by a
 * change, and once it has waited `watch.resumeAfterWaitMs` (3 s here) changes wake looks again,
 * the question staying open; the user's answer names what arrived; `cogito status` says which
 * of working, resting and waiting it is at each step.
 */
import { mkdir, mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Activity } from '../../src/api/activity.js';
import { runCogito } from '../helpers/cogitoProcess.js';
import { rawAgentClient, type RawAgentClient } from '../helpers/rawAgentClient.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { waitUntil } from '../helpers/waitFor.js';

interface Row {
  running: boolean;
  pid: number;
  state: string;
  activity?: Activity;
  doing?: string;
}

const REST = 'I looked around the folder. Nothing needs doing right now.';
const ASK = 'I found three scans. Should I sort them into folders by year?\n[WAIT]';
const RESUME_AFTER_MS = 3000;

describe('a background agent rests, asks and keeps watching (#42)', () => {
  let server: ScriptedServer;
  let tmp: string;
  let ws: string;
  let home: string;
  let env: Record<string, string>;
  let client: RawAgentClient | undefined;
  const pids: number[] = [];

  beforeEach(async () => {
    server = await startScriptedServer();
    tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), 'cogito-rest-')));
    ws = path.join(tmp, 'downloads');
    home = path.join(tmp, 'home');
    await Promise.all([ws, home].map((d) => mkdir(d)));
    await writeFile(
      path.join(home, 'config.json'),
      JSON.stringify({
        // Timed looks every 2 s at most, so a rest shows skipped looks within seconds.
        pacing: { maxIntervalMs: 2000, cacheTtlSeconds: 0 },
        watch: { minWakeIntervalMs: 0, resumeAfterWaitMs: RESUME_AFTER_MS },
      }),
    );
    env = { COGITO_API_KEY: 'sk-test', COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' };
  });
  afterEach(async () => {
    client?.close();
    client = undefined;
    for (const pid of pids.splice(0)) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // Gone.
      }
    }
    await server.close();
    await rm(tmp, { recursive: true, force: true });
  });

  const cogito = async (args: string[]) => {
    const run = runCogito([...args, '--home', home], env, { cwd: ws });
    const code = await run.code;
    return { code, out: run.stdout(), err: run.stderr() };
  };
  const status = async (): Promise<Row> => {
    const r = await cogito(['status', '--json']);
    expect(r.code, r.err).toBe(0);
    return (JSON.parse(r.out) as Row[])[0]!;
  };
  const statusText = async (): Promise<string> => (await cogito(['status'])).out;
  const waitStatus = (what: string, ok: (r: Row) => boolean): Promise<Row> =>
    waitUntil(
      async () => {
        const r = await status();
        return ok(r) ? r : undefined;
      },
      what,
      30_000,
    );
  async function start(): Promise<void> {
    const started = await cogito(['start', '--think-interval', '1000']);
    expect(started.code, started.err).toBe(0);
    const row = await status();
    pids.push(row.pid);
    const run = path.join(home, 'data', 'run');
    const [sock] = (await readdir(run)).filter((n) => n.endsWith('.sock'));
    client = await rawAgentClient(path.join(run, sock!), { timeoutMs: 15_000 });
    await client.subscribe();
  }
  const events = (type: string) =>
    client!.lines
      .filter((l) => l.type === 'event')
      .map((l) => l.event as { type: string })
      .filter((e) => e.type === type);

  it('resting makes no request while nothing changes, says "wakes on a change", and a new file wakes it', async () => {
    server.setDefault({ kind: 'stream', content: REST });
    await start();
    await server.waitForRequest(0, 30_000);
    const rest = await waitStatus('a free rest', (r) => r.activity?.state === 'resting');
    expect(rest.state).toBe('THINKING');
    expect(rest.activity).not.toHaveProperty('nextLookAt');
    expect(rest.doing).toBe('resting, wakes on a change');
    expect(await statusText()).toContain('● Resting · wakes on a change · since ');
    // Three timed looks come and go (each one rescheduled), and none of them makes a request.
    const seen = events('scheduled').length;
    const turns = events('turn_start').length;
    await client!.waitForEvent('scheduled', seen + 3);
    expect(events('turn_start')).toHaveLength(turns);
    expect(server.requests).toHaveLength(1);

    // A new file wakes it at once; while it looks, status says it works.
    server.push({ kind: 'stream', content: ['Saw ', 'the new ', 'scan.'], chunkDelayMs: 4000 });
    await writeFile(path.join(ws, 'scan-1.pdf'), 'new');
    const woke = await server.waitForRequest(1, 30_000);
    // The free rest is claimed only once the watcher's first scan is done, so the file is new
    // to it: the wake names it as created.
    expect(JSON.stringify(woke.body.messages.at(-1))).toMatch(/created: scan-1\.pdf/);
    const working = await status();
    expect(working.activity?.state).toBe('working');
    expect(working.doing).toBe('working');
  }, 180_000);

  it('an autonomous question is not interrupted by a change, resumes watching after watch.resumeAfterWaitMs, and the answer names what arrived', async () => {
    server.push({ kind: 'stream', content: ASK });
    server.setDefault({ kind: 'stream', content: REST });
    await start();
    await server.waitForRequest(0, 30_000);
    const waiting = await waitStatus('the question', (r) => r.activity?.state === 'waiting');
    const asked = waiting.activity!.question!.at;
    expect(waiting.state).toBe('AWAITING_INPUT');
    expect(waiting.activity).toMatchObject({
      since: asked,
      question: { text: 'I found three scans. Should I sort them into folders by year?' },
      watchFrom: asked + RESUME_AFTER_MS,
    });
    expect(waiting.doing).toMatch(/^waiting for your answer since \d\d:\d\d/);

    // A change right away: noted, not looked at while the question holds.
    await writeFile(path.join(ws, 'scan-1.pdf'), 'new');
    const look = await server.waitForRequest(1, 30_000);
    const lookedAt = Date.now() - (performance.now() - look.receivedAt);
    expect(lookedAt - asked).toBeGreaterThanOrEqual(RESUME_AFTER_MS - 50);
    const note = JSON.stringify(look.body.messages.at(-1));
    expect(note).toMatch(/created: scan-1\.pdf/);
    expect(note).toMatch(/has not answered your question of .* yet; it stays open/);

    // After the look the floor is the user's again, the question as it was; it now watches.
    const back = await waitStatus(
      'the question again, watching',
      (r) => r.state === 'AWAITING_INPUT' && r.doing?.includes('watching for changes') === true,
    );
    expect(back.activity).toMatchObject({
      state: 'waiting',
      since: asked,
      question: { at: asked },
    });
    expect(await statusText()).toMatch(
      /● Your turn · waiting for your answer since \d\d:\d\d · watching for changes\n/,
    );

    // Another change is looked at at once.
    await writeFile(path.join(ws, 'scan-2.pdf'), 'newer');
    const second = await server.waitForRequest(2, 30_000);
    expect(JSON.stringify(second.body.messages.at(-1))).toMatch(/created: scan-2\.pdf/);
    await waitStatus('waiting again', (r) => r.state === 'AWAITING_INPUT');

    // The user's answer is the answer to the question, with all that arrived since.
    const sent = await cogito(['send', 'Yes, by year please.']);
    expect(sent.code, sent.err).toBe(0);
    const answer = await server.waitForRequest(3, 30_000);
    const tail = JSON.stringify(answer.body.messages.slice(-2));
    expect(tail).toContain('Yes, by year please.');
    expect(tail).toMatch(/answers your question of .*Should I sort them into folders by year/);
    expect(tail).toMatch(/since you asked: created: scan-1\.pdf, scan-2\.pdf/);
    const after = await waitStatus(
      'a rest after the answer',
      (r) => r.activity?.state === 'resting',
    );
    expect(after.activity).not.toHaveProperty('question');
  }, 180_000);
});
