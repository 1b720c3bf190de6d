/**
 * A reply is read once, in the turn: the stored assistant message carries its parts (text,
 * calls with ids, their results linked by `callId`), and the ledger, crash recovery and a
 * session's next load read those parts, never the raw text again.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HistoryMessage, ReplyCall } from '../../src/core/messages.js';
import { CycleRecorder } from '../../src/ledger/recorder.js';
import type { CycleRecord } from '../../src/api/ledger.js';
import { finishCrashRecord } from '../../src/journal/recover.js';
import { HISTORY_FILE } from '../../src/history/meta.js';
import { Session } from '../../src/history/sessionFiles.js';
import { callsOf } from '../../src/protocol/replyParts.js';
import { Workspace } from '../../src/tools/workspace.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { partsOfText } from '../helpers/replyParts.js';
import { waitForStore } from '../helpers/waitFor.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const withoutIds = (m: HistoryMessage) =>
  m.parts?.items.map((p) => (p.type === 'call' ? { ...p, id: '' } : p));

describe('the stored reply', () => {
  it('carries its parts: text, calls with ids, and each result linked to its call', async () => {
    h = await createHarness();
    await writeFile(path.join(h.workspaceDir, 'notes.md'), '# notes\n');
    h.server.push(
      {
        kind: 'stream',
        content: 'Looking.\n[TOOL] ls(".") [/TOOL]\n[TOOL] read(path="notes.md") [/TOOL]',
      },
      { kind: 'stream', content: 'You have **notes**. [WAIT]' },
    );
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'what is here?' });
    await waitForStore(h.agent.store, (s) => s.ledger.length === 1, 'the turn to be recorded');
    await h.agent.idle();

    const [, reply, first, second, last] = h.session.messages();
    expect(reply!.role).toBe('assistant');
    expect(reply!.content).toContain('[TOOL] ls(".") [/TOOL]'); // the model's own text, kept
    expect(reply!.parts).toEqual({
      items: [
        { type: 'text', text: 'Looking.\n' },
        {
          type: 'call',
          id: `${reply!.id}#0`,
          index: 0,
          raw: '[TOOL] ls(".") [/TOOL]',
          name: 'ls',
          args: ['.'],
        },
        { type: 'text', text: '\n' },
        {
          type: 'call',
          id: `${reply!.id}#1`,
          index: 1,
          raw: '[TOOL] read(path="notes.md") [/TOOL]',
          name: 'read',
          args: [],
          named: [{ name: 'path', value: 'notes.md' }],
        },
      ],
      wait: false,
    });
    // Each result names the call it answers.
    expect([first, second].map((m) => [m!.role, m!.callIndex, m!.callId])).toEqual([
      ['tool', 0, `${reply!.id}#0`],
      ['tool', 1, `${reply!.id}#1`],
    ]);
    expect(last!.parts).toEqual({
      items: [{ type: 'text', text: 'You have **notes**. ' }],
      wait: true,
    });
    // The ledger's reply is the shown text, from the parts.
    expect(h.agent.store.getState().ledger[0]!.reply).toBe('You have **notes**.');

    // Saved and read back: the parts are on disk, read as they were written.
    const again = Session.load(h.session.id, h.session.dir).messages();
    expect(again.map((m) => m.parts)).toEqual(h.session.messages().map((m) => m.parts));
  });

  it('an interrupted reply is read once at SAVE, and keeps its parts', async () => {
    h = await createHarness();
    // The reply stalls mid-stream: RUN never reads it, the interrupt ends the turn.
    h.server.push({
      kind: 'stream',
      content: ['Half ', '[TOOL] ls(".") [/TOOL]', ' and'],
      stallAfterChunks: 3,
    });
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'go' });
    await waitForStore(h.agent.store, (s) => s.liveReply.includes(' and'), 'the reply to stream');
    h.agent.send({ type: 'interrupt' });
    await waitForStore(
      h.agent.store,
      (s) => s.messages.some((m) => m.role === 'assistant'),
      'the interrupted reply to be saved',
    );
    const reply = h.session.messages().find((m) => m.role === 'assistant')!;
    expect(reply.interrupted).toBe(true);
    expect(withoutIds(reply)).toEqual(withoutIds({ ...reply, parts: partsOfText(reply.content) }));
  });
});

describe('the ledger', () => {
  it('records the reply as its parts show it, not by reading the raw text', () => {
    const written: CycleRecord[] = [];
    const recorder = new CycleRecorder({
      tools: { get: () => ({ kind: 'read' }) },
      clock: { now: () => 1000 },
      write: (r) => written.push(r),
    });
    recorder.listener({ type: 'turn_start', turnId: 7, trigger: 'user', cycle: 0 } as never);
    const message: HistoryMessage = {
      id: 'r1',
      role: 'assistant',
      at: 1,
      // A raw text the parts do not agree with: the record must come from the parts.
      content: 'raw text that nobody should parse [TOOL] ls(".") [/TOOL]',
      parts: {
        items: [
          { type: 'text', text: 'Found it.\n' },
          {
            type: 'call',
            id: 'r1#0',
            index: 0,
            raw: '[TOOL] ls(".") [/TOOL]',
            name: 'ls',
            args: ['.'],
          },
          { type: 'text', text: '\nDone.' },
        ],
        wait: false,
      },
    };
    recorder.listener({ type: 'message_added', message });
    recorder.listener({ type: 'turn_end', turnId: 7, outcome: 'ok', wait: false } as never);
    expect(written.map((r) => r.reply)).toEqual(['Found it.\nDone.']);
  });
});

describe('a session saved before replies kept their parts', () => {
  /** A session folder holding `lines` as its history file, loaded the way a start loads it. */
  async function oldSession(lines: object[]): Promise<{ session: Session; ws: Workspace }> {
    h = await createHarness();
    const dir = h.session.dir;
    await writeFile(
      path.join(dir, HISTORY_FILE),
      lines.map((m) => JSON.stringify({ t: 'msg', m })).join('\n') + '\n',
    );
    return { session: Session.load(h.session.id, dir), ws: await Workspace.open(h.workspaceDir) };
  }

  const OLD_REPLY = {
    id: 'old-1',
    role: 'assistant',
    content:
      'Two things.\n[TOOL] ls(".") [/TOOL]\n[TOOL] read("a.md") [/TOOL]\nthen [TOOL] oops( [/TOOL]',
    calls: 3,
    at: 2,
  };

  it('loads into the same parts the turn would have stored', async () => {
    const { session } = await oldSession([
      { id: 'u-1', role: 'user', content: 'hi', at: 1 },
      OLD_REPLY,
      { id: 'old-2', role: 'assistant', content: 'Nothing to do. [WAIT]', at: 3 },
    ]);
    const [user, reply, waiting] = session.messages();
    expect(user!.parts).toBeUndefined();
    // One parse at load, the same reading the turn makes, ids from the message's own id.
    const fresh = partsOfText(OLD_REPLY.content);
    expect(reply!.parts).toEqual({
      ...fresh,
      items: fresh.items.map((p) => (p.type === 'call' ? { ...p, id: `old-1#${p.index}` } : p)),
    });
    expect(callsOf(reply!.parts!).map((c) => [c.name, c.error === undefined])).toEqual([
      ['ls', true],
      ['read', true],
      ['oops', false],
    ]);
    expect(waiting!.parts).toEqual({
      items: [{ type: 'text', text: 'Nothing to do. ' }],
      wait: true,
    });
  });

  it('parts a hostile file got wrong are read again from the text, never trusted or crashed on', async () => {
    const { session } = await oldSession([
      { ...OLD_REPLY, parts: { items: [{ type: 'call', id: 1, raw: null }], wait: 'yes' } },
      { id: 'x-2', role: 'assistant', content: 'fine', parts: 'junk', at: 3 },
    ]);
    const [reply, fine] = session.messages();
    expect(callsOf(reply!.parts!).map((c: ReplyCall) => c.id)).toEqual([
      'old-1#0',
      'old-1#1',
      'old-1#2',
    ]);
    expect(fine!.parts).toEqual({ items: [{ type: 'text', text: 'fine' }], wait: false });
  });

  it('a crash record in an old session is finished from the parts the load gave it', async () => {
    const { session, ws } = await oldSession([
      { id: 'u-1', role: 'user', content: 'go', at: 1 },
      OLD_REPLY,
      // The first call's result made it; a crash cut off the rest.
      {
        id: 't-1',
        role: 'tool',
        content: '[RESULT ls(".")] ok\na.md\n[/RESULT]',
        callIndex: 0,
        at: 3,
      },
    ]);
    const port = {
      messages: () => session.messages(),
      append: (m: HistoryMessage) => session.append(m),
    };
    const report = await finishCrashRecord(port, undefined, ws);
    expect(report.results).toBe(2);
    const added = session.messages().slice(3);
    expect(added.map((m) => [m.callIndex, m.callId, m.results?.[0]?.ok])).toEqual([
      [1, 'old-1#1', false],
      [2, 'old-1#2', false],
    ]);
    expect(added[0]!.content).toContain('read("a.md")');
    expect(added[0]!.content).toContain('interrupted by a crash');
    // Finished: a second start finds nothing to do.
    expect((await finishCrashRecord(port, undefined, ws)).results).toBe(0);
  });
});
