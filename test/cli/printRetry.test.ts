/**
 * Faults in print mode, through the real program (`cogito -p` against the scripted server):
 * transient errors are retried inside the prompt's own turn, the same request each time (the
 * user's words, as the user's); when the tries run out the error names the server, the status
 * and the fix and the run exits 1; a request that never reached a server costs nothing; a
 * chain that learns nothing stops within three requests.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCogito } from '../helpers/cogitoProcess.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';

const PROMPT = 'what is in the notes?';

describe('print mode retries inside the turn', () => {
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    server = await startScriptedServer();
    ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-retry-ws-'));
    home = await mkdtemp(path.join(os.tmpdir(), 'cogito-retry-home-'));
    env = { COGITO_API_KEY: 'sk-test', COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' };
    // Short back-offs and stall timeout, so the test does not wait for the defaults.
    await config({});
  });
  afterEach(async () => {
    await server.close();
    await rm(ws, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  const config = (extra: object): Promise<void> =>
    writeFile(
      path.join(home, 'config.json'),
      JSON.stringify({ backoff: { baseMs: 20, maxMs: 100 }, streamIdleTimeoutMs: 400, ...extra }),
    );
  const print = (extra: Record<string, string> = {}, args: string[] = []) =>
    runCogito(['-p', PROMPT, '--home', home, ...args], { ...env, ...extra }, { cwd: ws });

  it('500, 429 with Retry-After, a dropped stream, a malformed chunk, then the answer: exit 0, the answer on stdout', async () => {
    server.push(
      { kind: 'error', status: 500 },
      { kind: 'error', status: 429, retryAfter: '1' },
      { kind: 'stream', content: ['Half ', 'an ', 'answer'], dropAfterChunks: 2 },
      { kind: 'stream', content: ['Broken ', 'reply'], malformedAfterChunks: 1 },
      { kind: 'stream', content: 'The notes hold three drafts.' },
    );
    const run = print();
    expect(await run.code, run.stderr()).toBe(0);
    expect(run.stdout()).toBe('The notes hold three drafts.\n');
    expect(server.requests).toHaveLength(5);
    // Every try is the same request: the user's words, as the user's, never "not here".
    const first = server.requests[0]!.body.messages as { role: string; content: string }[];
    expect(first.at(-1)).toEqual({ role: 'user', content: PROMPT });
    for (const r of server.requests) {
      expect(r.body.messages).toEqual(first);
      expect(JSON.stringify(r.body.messages)).not.toContain('not here');
    }
    // The server asked for a second after the 429: the retry waited for it.
    const gap = server.requests[2]!.receivedAt - server.requests[1]!.receivedAt;
    expect(gap).toBeGreaterThanOrEqual(950);
    // Each retry is told on stderr; no error, and no note about tools or --max-cycles.
    const retries = run.stderr().match(/^warning: .*retrying in/gm) ?? [];
    expect(retries).toHaveLength(4);
    expect(run.stderr()).toContain('HTTP 500');
    expect(run.stderr()).toContain('HTTP 429');
    expect(run.stderr()).not.toMatch(/^error:/m);
    expect(run.stderr()).not.toContain('--max-cycles');
  }, 60_000);

  it('a stalled stream is cut and retried as the same request', async () => {
    server.push(
      { kind: 'stream', content: ['Slow ', 'start'], stallAfterChunks: 1 },
      { kind: 'stream', content: 'Done.' },
    );
    const run = print();
    expect(await run.code, run.stderr()).toBe(0);
    expect(run.stdout()).toBe('Done.\n');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body.messages).toEqual(server.requests[0]!.body.messages);
    expect(run.stderr()).toMatch(/sent nothing for .* retrying in/);
  }, 60_000);

  it('when the tries run out: exit 1, the error names the server, the status and the fix', async () => {
    await config({ maxConsecutiveFailures: 3 });
    server.push(
      { kind: 'stream', content: ['Half ', 'an ', 'answer'], dropAfterChunks: 2 },
      { kind: 'error', status: 503 },
      { kind: 'error', status: 503 },
    );
    const run = print();
    expect(await run.code).toBe(1);
    expect(run.stdout()).toBe('');
    expect(server.requests).toHaveLength(3);
    const err = run.stderr();
    const line = /^error: (.*)$/m.exec(err)![1]!;
    expect(line).toContain(`server at ${server.url}`);
    expect(line).toContain('HTTP 503');
    expect(line).toMatch(/try again later/);
    expect(err).toMatch(/paused after 3 failed requests in a row \(maxConsecutiveFailures\)/);
    // No reply came: nothing is said about replies calling tools.
    expect(err).not.toContain('still called tools');

    // A last try cut off mid-reply: what came of it is no answer either.
    server.push(
      { kind: 'error', status: 503 },
      { kind: 'error', status: 503 },
      { kind: 'stream', content: ['Half ', 'an ', 'answer'], dropAfterChunks: 2 },
    );
    const cut = print();
    expect(await cut.code).toBe(1);
    expect(cut.stdout()).toBe('');
    expect(cut.stderr()).toMatch(
      new RegExp(`^error: the connection to ${server.url} dropped`, 'm'),
    );
  }, 60_000);

  it('requests that never reach a server (connection refused) cost no tokens', async () => {
    // A port nobody listens on: taken, then freed.
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as net.AddressInfo;
        s.close(() => resolve(port));
      });
    });
    await config({ maxConsecutiveFailures: 3 });
    const run = print({ COGITO_BASE_URL: `http://127.0.0.1:${port}/v1` });
    expect(await run.code).toBe(1);
    expect(run.stderr()).toContain(`could not connect to http://127.0.0.1:${port}/v1`);
    expect(run.stderr().match(/retrying in/g)).toHaveLength(2);
    // The session's ledger holds the turn, with nothing spent.
    const sessions = path.join(home, 'data', 'sessions');
    const [id] = await readdir(sessions);
    const ledger = await readFile(path.join(sessions, id!, 'ledger.jsonl'), 'utf8');
    const records = ledger
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { tokensIn: number; tokensOut: number });
    expect(records.length).toBeGreaterThan(0);
    for (const r of records) expect(r.tokensIn + r.tokensOut).toBe(0);
  }, 60_000);

  it('a model that answers every step with one more remind call stops within 3 requests', async () => {
    server.setDefault((req) => ({
      kind: 'stream',
      content: `[TOOL] remind("in 2 hours", "look again ${req.index}") [/TOOL]`,
    }));
    const run = print();
    expect(await run.code, run.stderr()).toBe(0);
    expect(server.requests).toHaveLength(3);
    // The third is the wrap-up: the model is told its calls brought nothing new.
    expect(JSON.stringify(server.requests[2]!.body.messages)).toContain('brought nothing new');
    expect(JSON.stringify(server.requests[1]!.body.messages)).not.toContain('brought nothing new');
  }, 60_000);
});
