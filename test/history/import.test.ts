import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importConversationJson } from '../../src/history/importConversation.js';
import { SessionStore } from '../../src/history/sessionStore.js';
import { makeTmpDir } from './tmpDir.js';

describe('importing a CogitoAgent conversation.json', () => {
  let tmp: ReturnType<typeof makeTmpDir>;
  let store: SessionStore;
  let source: string;
  beforeEach(() => {
    tmp = makeTmpDir();
    store = new SessionStore(path.join(tmp.dir, 'data'));
    source = path.join(tmp.dir, 'data', 'conversation.json');
    fs.mkdirSync(path.dirname(source), { recursive: true });
  });
  afterEach(() => tmp.cleanup());

  const conversation = [
    { role: 'system', content: 'You are Cogito.' },
    { role: 'user', content: '你好' },
    { role: 'assistant', content: 'Hello!' },
  ];

  it('imports once into a new session and leaves the file in place', async () => {
    fs.writeFileSync(source, JSON.stringify(conversation));
    const result = await importConversationJson(source, store);
    expect(result).toMatchObject({ imported: 3, warnings: [] });
    const session = await store.open(result!.sessionId!);
    expect(session.messages().map((m) => [m.role, m.content])).toEqual(
      conversation.map((m) => [m.role, m.content]),
    );
    expect((await store.latest())?.firstUserLine).toBe('你好');
    expect(fs.readFileSync(source, 'utf8')).toBe(JSON.stringify(conversation));

    expect(await importConversationJson(source, store)).toBeUndefined();
    expect(await store.list()).toHaveLength(1);
  });

  it('imports again when the file changed since', async () => {
    fs.writeFileSync(source, JSON.stringify(conversation));
    await importConversationJson(source, store);
    fs.writeFileSync(source, JSON.stringify([...conversation, { role: 'user', content: 'more' }]));
    const later = Date.now() / 1000 + 10;
    fs.utimesSync(source, later, later);
    expect(await importConversationJson(source, store)).toMatchObject({ imported: 4 });
    expect(await store.list()).toHaveLength(2);
  });

  it('does nothing when there is no file', async () => {
    expect(await importConversationJson(source, store)).toBeUndefined();
    expect(await store.list()).toEqual([]);
  });

  it('warns about invalid JSON without crashing or creating a session', async () => {
    fs.writeFileSync(source, '[{"role": "user", "content": "hi"');
    const result = await importConversationJson(source, store);
    expect(result?.imported).toBe(0);
    expect(result?.sessionId).toBeUndefined();
    expect(result?.warnings[0]).toContain(`${source} is not valid JSON`);
    expect(result?.warnings[0]).toContain('Fix or remove the file');
    expect(await store.list()).toEqual([]);
  });

  it('warns about a wrong shape, and skips malformed entries with a count', async () => {
    fs.writeFileSync(source, JSON.stringify({ hello: 'world' }));
    expect((await importConversationJson(source, store))?.warnings[0]).toContain(
      'is not a list of {"role", "content"} messages',
    );
    fs.writeFileSync(
      source,
      JSON.stringify([
        { role: 'user', content: 'ok' },
        { role: 'robot', content: 'no' },
        'junk',
        { role: 'assistant', content: [{ type: 'text', text: 'parts' }] },
      ]),
    );
    const result = await importConversationJson(source, store);
    expect(result).toMatchObject({ imported: 2 });
    expect(result?.warnings).toEqual([expect.stringContaining('2 of 4 entries')]);
    const session = await store.open(result!.sessionId!);
    expect(session.messages().map((m) => m.content)).toEqual(['ok', 'parts']);
  });
});
