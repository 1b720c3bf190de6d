import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeMessage } from '../../src/core/messages.js';
import type { HistoryMessage } from '../../src/core/messages.js';
import { SessionStore } from '../../src/history/sessionStore.js';
import { makeTmpDir } from './tmpDir.js';
import { replyMessage } from '../helpers/replyParts.js';

describe('archive and compaction records', () => {
  let tmp: ReturnType<typeof makeTmpDir>;
  let store: SessionStore;
  let msgs: HistoryMessage[];
  beforeEach(() => {
    tmp = makeTmpDir();
    store = new SessionStore(tmp.dir);
    msgs = Array.from({ length: 6 }, (_, i) =>
      i % 2 ? replyMessage(`m${i}`) : makeMessage('user', `m${i}`),
    );
  });
  afterEach(() => tmp.cleanup());

  it('archives originals, replaces them with a summary, and replays that on load', async () => {
    const s = await store.create();
    for (const m of msgs) s.append(m);
    const history = path.join(s.dir, 'history.jsonl');
    const before = fs.readFileSync(history, 'utf8');

    const old = msgs.slice(0, 4);
    expect(s.archive(old)).toEqual({ ok: true });
    const summary = makeMessage('user', 'Summary of m0..m3', { summary: true });
    expect(s.compact(summary, msgs[3]!.id)).toEqual({ ok: true });
    expect(s.messages()).toEqual([summary, msgs[4], msgs[5]]);

    // Nothing was rewritten: the old lines are still there, one compact line was added.
    const after = fs.readFileSync(history, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(JSON.parse(after.slice(before.length))).toEqual({
      t: 'compact',
      summary,
      upToId: msgs[3]!.id,
    });
    expect(s.archivedMessages()).toEqual(old);

    const later = replyMessage('after compaction');
    s.append(later);
    s.close();
    const again = await store.open(s.id);
    expect(again.messages()).toEqual([summary, msgs[4], msgs[5], later]);
    expect(again.archivedMessages()).toEqual(old);
    expect(again.loadWarnings).toEqual([]);
  });

  it('compacts twice: the second summary covers the first', async () => {
    const s = await store.create();
    for (const m of msgs) s.append(m);
    const s1 = makeMessage('user', 'summary 1', { summary: true });
    const s2 = makeMessage('user', 'summary 2', { summary: true });
    s.compact(s1, msgs[1]!.id);
    s.compact(s2, msgs[3]!.id);
    expect(s.messages()).toEqual([s2, msgs[4], msgs[5]]);
    s.close();
    expect((await store.open(s.id)).messages()).toEqual([s2, msgs[4], msgs[5]]);
  });

  it('refuses to compact up to an id that is not live', async () => {
    const s = await store.create();
    s.append(msgs[0]!);
    const result = s.compact(makeMessage('user', 'sum'), 'nope');
    expect(result).toMatchObject({ ok: false, error: { code: 'EUNKNOWNID' } });
    expect(s.messages()).toEqual([msgs[0]]);
  });

  it('keeps every original when the compacted-up-to message was lost, with a warning', async () => {
    const s = await store.create();
    s.close();
    const file = path.join(s.dir, 'history.jsonl');
    const summary = makeMessage('user', 'sum', { summary: true });
    fs.writeFileSync(
      file,
      [
        JSON.stringify({ t: 'msg', m: msgs[0] }),
        JSON.stringify({ t: 'compact', summary, upToId: 'lost-id' }),
        JSON.stringify({ t: 'msg', m: msgs[1] }),
        JSON.stringify({ t: 'msg', m: msgs[1] }), // A retried write that landed twice.
      ].join('\n') + '\n',
    );
    const again = await store.open(s.id);
    expect(again.messages()).toEqual([msgs[0], msgs[1]]);
    expect(again.loadWarnings).toEqual([expect.stringContaining('refers to message lost-id')]);
  });
});
