/**
 * Talking to a background agent from a shell, through the real program (child processes, a
 * temp home, the scripted server as the model): `cogito send` queues without aborting the
 * stream in flight, `send --wait` prints the answer (and shows an approval it waits on),
 * `cogito approve|deny` act on the waiting card, `-p` runs beside the agent in a session of its
 * own, and every one of them says what to do when no agent runs.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_AGENT_EXIT } from '../../src/daemon/reachAgent.js';
import { runCogito } from '../helpers/cogitoProcess.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { waitUntil } from '../helpers/waitFor.js';

interface Row {
  pid: number;
  state: string;
  sessionId: string;
}

describe('a background agent from a shell: send, approve, deny, -p beside it', () => {
  let server: ScriptedServer;
  let tmp: string;
  let ws: string;
  let home: string;
  let env: Record<string, string>;
  const pids: number[] = [];

  beforeEach(async () => {
    server = await startScriptedServer();
    tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), 'cogito-shell-')));
    ws = path.join(tmp, 'project');
    home = path.join(tmp, 'home');
    await Promise.all([ws, home].map((d) => mkdir(d)));
    // Changes the agent's own tools make must not wake it in between the test's steps.
    await writeFile(
      path.join(home, 'config.json'),
      JSON.stringify({ watch: { maxWakesPerHour: 0 } }),
    );
    env = { COGITO_API_KEY: 'sk-test', COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' };
  });
  afterEach(async () => {
    await cogito(['stop']).catch(() => undefined);
    for (const pid of pids) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // Gone.
      }
    }
    await server.close();
    await rm(tmp, { recursive: true, force: true });
  });

  const spawnCogito = (args: string[]) => runCogito([...args, '--home', home], env, { cwd: ws });
  const cogito = async (args: string[]) => {
    const run = spawnCogito(args);
    const code = await run.code;
    return { code, out: run.stdout(), err: run.stderr() };
  };
  const status = async (): Promise<Row | undefined> => {
    const r = await cogito(['status', '--json']);
    return (JSON.parse(r.out) as Row[])[0];
  };
  const waitForState = (state: string) =>
    waitUntil(async () => (await status())?.state === state, `the agent to be ${state}`, 60_000);
  const startAgent = async (): Promise<Row> => {
    const started = await cogito(['start', '--think-interval', '600000']);
    expect(started.code, started.err).toBe(0);
    const row = (await status())!;
    pids.push(row.pid);
    return row;
  };
  const sessionHistory = (id: string) =>
    readFile(path.join(home, 'data', 'sessions', id, 'history.jsonl'), 'utf8');

  it('with no agent in the folder, send, approve and deny exit 4 naming cogito start', async () => {
    for (const args of [['send', 'hello'], ['approve'], ['deny']]) {
      const r = await cogito(args);
      expect(r.code, args.join(' ')).toBe(NO_AGENT_EXIT);
      expect(r.err).toContain(`no Cogito runs in the background in ${ws}`);
      expect(r.err).toContain(`cogito start --workspace ${JSON.stringify(ws)}`);
    }
    expect(server.requests).toHaveLength(0);
    const bad = await cogito(['send']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('usage: cogito send "MESSAGE"');
  }, 60_000);

  it('send queues a message without aborting the stream in flight; the next turn answers it', async () => {
    // The agent's first look streams slowly: the message arrives while it is in flight.
    const slow = Array.from({ length: 60 }, (_, i) => `word${i} `);
    server.push({ kind: 'stream', content: slow, chunkDelayMs: 400 });
    server.push({ kind: 'stream', content: 'Got your note. [WAIT]' });
    await startAgent();
    await server.waitForRequest(0, 60_000);
    const sent = await cogito(['send', 'Please also check the README.']);
    expect(sent.code, sent.err).toBe(0);
    expect(sent.out).toContain(`Queued for the agent in ${ws}`);
    // Queued while the stream was still coming: it was not cut short.
    expect(server.requests[0]!.completed).toBe(false);
    const next = await server.waitForRequest(1, 60_000);
    expect(server.requests[0]!.completed).toBe(true);
    expect(server.requests[0]!.closedAt).toBeUndefined();
    const asked = JSON.stringify(next.body.messages);
    expect(asked).toContain('Please also check the README.');
    // The reply streamed in full stays in the history ahead of the message.
    expect(asked).toContain('word59');
    await waitForState('AWAITING_INPUT');

    // --wait prints the answer, and only the answer, on stdout.
    server.push({ kind: 'stream', content: 'The answer is 42. [WAIT]' });
    const waited = await cogito(['send', 'What is the answer?', '--wait']);
    expect(waited.code, waited.err).toBe(0);
    expect(waited.out).toBe('The answer is 42.\n');
  }, 180_000);

  it('approve shows the card and the call runs; deny and the file stays; send --wait shows the card it waits on', async () => {
    await writeFile(path.join(ws, 'old.txt'), 'old');
    await writeFile(path.join(ws, 'keep.txt'), 'keep');
    server.push({ kind: 'stream', content: 'Nothing to do yet. [WAIT]' });
    await startAgent();
    await waitForState('AWAITING_INPUT');
    const none = await cogito(['approve']);
    expect(none.code).toBe(1);
    expect(none.err).toContain(`no approval is waiting in ${ws}`);

    server.push(
      { kind: 'stream', content: 'Cleaning up.\n[TOOL] delete("old.txt") [/TOOL]' },
      { kind: 'stream', content: 'Deleted old.txt. [WAIT]' },
    );
    const waiting = spawnCogito(['send', 'Delete old.txt', '--wait']);
    await waitUntil(
      () => waiting.stderr().includes('Approval needed: delete("old.txt")'),
      'send --wait to show the card',
      60_000,
    );
    expect(waiting.stderr()).toContain('cogito approve');
    const approved = await cogito(['approve']);
    expect(approved.code, approved.err).toBe(0);
    expect(approved.out).toContain('Approval needed: delete("old.txt")');
    expect(approved.out).toContain('Why it asks:');
    expect(approved.out).toContain('Approved');
    expect(await waiting.code).toBe(0);
    expect(waiting.stdout()).toBe('Deleted old.txt.\n');
    expect(existsSync(path.join(ws, 'old.txt'))).toBe(false);

    server.push(
      { kind: 'stream', content: '[TOOL] delete("keep.txt") [/TOOL]' },
      { kind: 'stream', content: 'Left keep.txt alone. [WAIT]' },
    );
    const queued = await cogito(['send', 'Delete keep.txt']);
    expect(queued.code, queued.err).toBe(0);
    await waitForState('AWAITING_APPROVAL');
    const denied = await cogito(['deny']);
    expect(denied.code, denied.err).toBe(0);
    expect(denied.out).toContain('Approval needed: delete("keep.txt")');
    expect(denied.out).toContain('Denied');
    const after = await server.waitForRequest(4, 60_000);
    expect(JSON.stringify(after.body.messages)).toMatch(/denied|declined/i);
    expect(await readFile(path.join(ws, 'keep.txt'), 'utf8')).toBe('keep');
  }, 240_000);

  it('-p runs beside the background agent in a session of its own; -c is refused naming cogito stop', async () => {
    server.push({ kind: 'stream', content: 'Looked around. [WAIT]' });
    const agent = await startAgent();
    await waitForState('AWAITING_INPUT');
    const before = await sessionHistory(agent.sessionId);

    server.push({ kind: 'stream', content: 'Beside it. [WAIT]' });
    const beside = await cogito(['-p', 'a quick question']);
    expect(beside.code, beside.err).toBe(0);
    expect(beside.out).toBe('Beside it.\n');
    // The background agent's session is untouched; the -p run wrote its own.
    const after = await status();
    expect(after).toMatchObject({ pid: agent.pid, sessionId: agent.sessionId });
    expect(await sessionHistory(agent.sessionId)).toBe(before);
    const sessions = await readdir(path.join(home, 'data', 'sessions'));
    const own = sessions.filter((id) => id !== agent.sessionId);
    expect(own).toHaveLength(1);
    expect(await sessionHistory(own[0]!)).toContain('a quick question');

    const cont = await cogito(['-p', 'go on', '-c']);
    expect(cont.code).toBe(3);
    expect(cont.err).toContain(`A background Cogito (pid ${agent.pid}`);
    expect(cont.err).toContain('cogito stop --workspace');
    expect(cont.err).toContain('Without -c and --session, cogito -p runs beside it');
    expect(cont.err).not.toContain('in its window');
    expect(server.requests).toHaveLength(2);
  }, 180_000);
});
