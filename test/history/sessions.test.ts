import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeMessage } from '../../src/core/messages.js';
import { SessionError } from '../../src/history/sessionStore.js';
import { newSessionId } from '../../src/history/sessionId.js';
import { useTmpSessionStore } from './tmpDir.js';
import { replyMessage } from '../helpers/replyParts.js';

describe('sessions', () => {
  const tmp = useTmpSessionStore();

  it('has no sessions at first, and openLatestOrCreate starts one', async () => {
    expect(await tmp.store.list()).toEqual([]);
    expect(await tmp.store.latest()).toBeUndefined();
    const s = await tmp.store.openLatestOrCreate();
    expect(s.dir).toBe(path.join(tmp.dir, 'sessions', s.id));
    expect(fs.readdirSync(s.dir).sort()).toEqual(['history.jsonl', 'meta.json']);
    expect((await tmp.store.latest())?.id).toBe(s.id);
  });

  it('makes time-sortable ids, strictly increasing within the process', () => {
    const at = Date.now();
    const first = newSessionId(at);
    const second = newSessionId(at);
    expect(first.id).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}-[a-z0-9]{3}$/);
    const iso = new Date(first.createdAt).toISOString().slice(0, 23).replace(/[:.]/g, '-');
    expect(first.id.startsWith(iso)).toBe(true);
    expect(second.id > first.id).toBe(true);
    expect(second.createdAt).toBe(first.createdAt + 1);
  });

  it('lists sessions most recently used first, with counts and the first user line', async () => {
    const a = await tmp.store.create();
    a.append(makeMessage('system', 'not a title'));
    a.append(makeMessage('user', '\n  整理一下我的下载文件夹\nplease'));
    a.append(replyMessage('ok'));
    const b = await tmp.store.create();
    const listed = await tmp.store.list();
    expect(listed.map((s) => s.id)).toEqual([b.id, a.id]);
    const infoA = listed[1]!;
    expect(infoA).toMatchObject({ id: a.id, dir: a.dir, messageCount: 3 });
    expect(infoA.firstUserLine).toBe('整理一下我的下载文件夹');
    expect(listed[0]).toMatchObject({ messageCount: 0 });
    expect(listed[0]!.firstUserLine).toBeUndefined();

    // Using the older session again makes it the latest: startup resumes it.
    const later = fs.statSync(path.join(b.dir, 'history.jsonl')).mtimeMs + 1000;
    a.append(makeMessage('user', 'back again'));
    fs.utimesSync(path.join(a.dir, 'history.jsonl'), later / 1000, later / 1000);
    expect((await tmp.store.latest())?.id).toBe(a.id);
    a.close();
    b.close();
    const resumed = await tmp.store.openLatestOrCreate();
    expect(resumed.id).toBe(a.id);
    expect(resumed.messages().map((m) => m.content)).toEqual([
      'not a title',
      '\n  整理一下我的下载文件夹\nplease',
      'ok',
      'back again',
    ]);
  });

  it('opens a session by id, keeping what was appended in order', async () => {
    const s = await tmp.store.create();
    const msgs = [makeMessage('user', 'q'), replyMessage('a', { reasoning: 'r' })];
    for (const m of msgs) expect(s.append(m)).toEqual({ ok: true });
    s.close();
    const again = await tmp.store.open(s.id);
    expect(again.messages()).toEqual(msgs);
    expect(again.loadWarnings).toEqual([]);
  });

  it('gives a clear error for an unknown or unsafe id', async () => {
    await tmp.store.create();
    const unknown = tmp.store.open('2020-01-01T00-00-00-000-zzz');
    await expect(unknown).rejects.toBeInstanceOf(SessionError);
    await expect(tmp.store.open('2020-01-01T00-00-00-000-zzz')).rejects.toThrow(
      `No session "2020-01-01T00-00-00-000-zzz" in ${path.join(tmp.dir, 'sessions')}. The ids are the folder names there`,
    );
    await expect(tmp.store.open('../../etc')).rejects.toMatchObject({ code: 'EBADID' });
  });

  it('lists a session whose meta.json is damaged, and ignores stray files', async () => {
    const s = await tmp.store.create();
    s.append(makeMessage('user', 'hi'));
    s.close();
    fs.writeFileSync(path.join(s.dir, 'meta.json'), '{oops');
    fs.writeFileSync(path.join(tmp.dir, 'sessions', 'notes.txt'), 'x');
    fs.mkdirSync(path.join(tmp.dir, 'sessions', 'empty-folder'));
    const listed = await tmp.store.list();
    expect(listed.map((i) => i.id)).toEqual([s.id]);
    expect(listed[0]!.messageCount).toBe(1);
  });

  it('writes the files privately (0600)', async () => {
    const s = await tmp.store.create();
    s.append(makeMessage('user', 'secret-ish'));
    s.close();
    expect(fs.statSync(path.join(s.dir, 'history.jsonl')).mode & 0o777).toBe(0o600);
  });
});
