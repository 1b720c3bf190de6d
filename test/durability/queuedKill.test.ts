/**
 * The attack on a queued message: a real background agent streams a slow reply; `cogito
 * send` queues a message (exit 0, "Queued"); the agent is killed with -9. The next `cogito
 * start` must deliver that message exactly once (one request answers it, one user message in
 * history.jsonl), and a graceful stop and start afterwards must not deliver it again.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAlive } from '../../src/core/processAlive.js';
import { backgroundFolder, type BackgroundFolder } from '../helpers/backgroundFolder.js';
import type { RecordedRequest } from '../helpers/scriptedServer.js';
import { waitUntil } from '../helpers/waitFor.js';

/** The last user message of a chat request. */
function lastUser(req: RecordedRequest): string | undefined {
  const msgs = (req.body as { messages: { role: string; content: unknown }[] }).messages;
  const user = msgs.filter((m) => m.role === 'user').at(-1);
  return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content);
}

/** The user messages in the session's history.jsonl with exactly this text. */
function inHistory(home: string, text: string): number {
  const sessions = path.join(home, 'data', 'sessions');
  let n = 0;
  for (const id of readdirSync(sessions)) {
    const file = path.join(sessions, id, 'history.jsonl');
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      try {
        const r = JSON.parse(line) as { t?: string; m?: { role: string; content: string } };
        if (r.t === 'msg' && r.m?.role === 'user' && r.m.content === text) n += 1;
      } catch {
        // A torn last line: not a message.
      }
    }
  }
  return n;
}

describe('a queued message survives kill -9 of the background agent', () => {
  let f: BackgroundFolder;
  beforeEach(async () => {
    f = await backgroundFolder();
  });
  afterEach(async () => {
    await f.close();
  });

  it('is delivered once on the next start, and not again after a graceful restart', async () => {
    const word = 'queued-before-the-kill 7f3a';
    // The first look streams a reply that never ends: the agent is busy.
    f.server.push({ kind: 'stream', content: 'Reading the folder slowly …', stallAfterChunks: 2 });
    const agent = await f.startAgent();
    await f.server.waitForRequest(0);
    const sent = await f.cogito(['send', word]);
    expect(sent.code, sent.err).toBe(0);
    expect(sent.out).toContain('Queued');
    process.kill(agent.pid, 'SIGKILL');
    await waitUntil(() => !isAlive(agent.pid), 'the agent to die', 15_000);
    const before = f.server.requests.length;

    f.server.setDefault({ kind: 'stream', content: 'Got it. [WAIT]' });
    await f.startAgent();
    const answered = await waitUntil(
      () => f.server.requests.slice(before).find((r) => lastUser(r) === word),
      'a request answering the queued message',
      30_000,
    );
    expect(answered).toBeDefined();
    await waitUntil(() => inHistory(f.home, word) === 1 || undefined, 'the message in history');
    await waitUntil(async () => (await f.state()) === 'AWAITING_INPUT' || undefined, 'idle');

    // A graceful stop and start: nothing left to deliver.
    const stopped = await f.cogito(['stop']);
    expect(stopped.code, stopped.err).toBe(0);
    await f.startAgent();
    await waitUntil(async () => (await f.state()) !== undefined || undefined, 'the agent');
    expect(f.server.requests.filter((r) => lastUser(r) === word)).toHaveLength(1);
    expect(inHistory(f.home, word)).toBe(1);
  }, 240_000);
});
