/**
 * Messages of any size on a wire of bounded lines: a long message goes out as parts no line of
 * which passes the limit and comes back whole (multi-byte text, any chunking); a line a reader
 * cannot read (over the limit, not JSON) is skipped with the problem named and the lines after
 * it still read. Over a real socket, against a peer that sends such a line: the client says
 * so and goes on; an attached screen reads the agent's state again and says so.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { attachTo } from '../../src/daemon/attach.js';
import { encodeFrames, ServerReader } from '../../src/daemon/frames.js';
import { MAX_LINE_BYTES, PROTOCOL_VERSION, type ServerMessage } from '../../src/daemon/protocol.js';
import { connectAgent } from '../../src/daemon/socketClient.js';
import { createAgentStore, snapshotOf } from '../../src/store/agentStore.js';
import { waitForStore, waitUntil } from '../helpers/waitFor.js';

/** Feeds `text` to a reader in pieces of `size` characters. */
function readAll(text: string, size: number) {
  const reader = new ServerReader();
  const messages: ServerMessage[] = [];
  const problems: string[] = [];
  for (let at = 0; at < text.length; at += size) {
    const r = reader.push(text.slice(at, at + size));
    messages.push(...r.messages);
    problems.push(...r.problems);
  }
  return { messages, problems };
}

describe('frames', () => {
  it('a 3 MB message of multi-byte text travels in bounded lines and comes back whole', () => {
    const text = '日本語 ✓ 🎉 "quoted" \\ back\n'.repeat(90_000);
    const message: ServerMessage = { type: 'event', event: { type: 'notice', text } };
    const wire = encodeFrames(message);
    const lines = wire.split('\n').slice(0, -1);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThan(MAX_LINE_BYTES);
    for (const size of [4093, 65_536]) {
      expect(readAll(wire, size)).toEqual({ messages: [message], problems: [] });
    }
  });

  it('skips an over-long line with the problem named, and reads the lines after it', () => {
    const after: ServerMessage = { type: 'event', event: { type: 'notice', text: 'after' } };
    const wire = `${'x'.repeat(MAX_LINE_BYTES + 5)}\nnot json\n${encodeFrames(after)}`;
    for (const size of [wire.length, 10_000]) {
      const { messages, problems } = readAll(wire, size);
      expect(messages).toEqual([after]);
      expect(problems).toEqual([
        expect.stringContaining('over 1 MiB could not be read and was skipped'),
        'a line from the agent is not JSON and was skipped',
      ]);
    }
  });
});

describe('a peer that sends a line nobody can read', () => {
  let tmp: string;
  let server: net.Server | undefined;
  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'cogito-frames-'));
  });
  afterEach(async () => {
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    server = undefined;
    await rm(tmp, { recursive: true, force: true });
  });

  /**
   * A stand-in agent: answers requests with `answer(method)`, and on `attach` or `subscribe`
   * sends a line over the limit, then an event.
   */
  async function badAgent(answer: (method: string) => unknown): Promise<string> {
    const socketPath = path.join(tmp, 'a.sock');
    server = net.createServer((c) => {
      const send = (m: unknown): void => void c.write(`${JSON.stringify(m)}\n`);
      send({ type: 'hello', protocol: PROTOCOL_VERSION, pid: process.pid, workspace: '/w' });
      let buffer = '';
      c.on('data', (d: Buffer) => {
        const parts = (buffer + d.toString()).split('\n');
        buffer = parts.pop() ?? '';
        for (const p of parts) {
          const m = JSON.parse(p) as { type: string; id: number; method: string };
          if (m.type !== 'request') continue;
          send({ type: 'reply', id: m.id, result: answer(m.method) });
          if (m.method !== 'attach' && m.method !== 'subscribe') continue;
          c.write(`{"type":"event","event":{"type":"notice","text":"${'y'.repeat(2_000_000)}"}}\n`);
          send({ type: 'event', event: { type: 'notice', level: 'info', text: 'AFTER' } });
        }
      });
    });
    await new Promise<void>((r) => server!.listen(socketPath, r));
    return socketPath;
  }

  it('the client says so and goes on reading', async () => {
    const c = await connectAgent(await badAgent(() => ({ subscribed: true })));
    const problems: string[] = [];
    const events: unknown[] = [];
    c.onProblem((p) => problems.push(p));
    c.onEvent((e) => events.push(e));
    await c.request('subscribe');
    await waitUntil(() => events.length > 0, 'the event after the bad line');
    expect(events).toEqual([{ type: 'notice', level: 'info', text: 'AFTER' }]);
    expect(problems).toEqual([expect.stringContaining('could not be read')]);
    expect(await c.request('status')).toEqual({ subscribed: true });
    c.close();
  });

  it('an attached screen reads the agent state again and says so', async () => {
    const first = snapshotOf(createAgentStore().getState());
    const later = { ...first, model: 'read-again' };
    let snapshots = 0;
    const socket = await badAgent((method) => {
      if (method === 'attach') return { snapshot: first };
      snapshots += 1;
      return later;
    });
    const a = await attachTo({ workspace: '/w', pid: process.pid, socket, started: '', log: '' });
    await waitForStore(a.store, (s) => s.model === 'read-again', 'the state read again');
    expect(snapshots).toBe(1);
    await waitForStore(
      a.store,
      (s) => s.notices.some((n) => n.text.includes('the screen read the agent')),
      'the notice',
    );
    a.detach();
  });
});
