import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeMessage } from '../../src/core/messages.js';
import type { HistoryMessage } from '../../src/core/messages.js';
import { SessionStore } from '../../src/history/sessionStore.js';
import { makeTmpDir } from './tmpDir.js';
import { replyMessage } from '../helpers/replyParts.js';

const line = (m: HistoryMessage): string => JSON.stringify({ t: 'msg', m }) + '\n';

describe('loading a damaged history', () => {
  let tmp: ReturnType<typeof makeTmpDir>;
  let store: SessionStore;
  let id: string;
  let dir: string;
  let file: string;
  const a = makeMessage('user', 'first question');
  const b = replyMessage('first answer\nwith two lines');
  const c = makeMessage('user', '第三条消息');

  beforeEach(async () => {
    tmp = makeTmpDir();
    store = new SessionStore(tmp.dir, { now: () => Date.UTC(2026, 10, 30, 20, 15, 3, 123) });
    const s = await store.create();
    s.close();
    ({ id, dir } = s);
    file = path.join(dir, 'history.jsonl');
  });
  afterEach(() => tmp.cleanup());

  /** Writes `content` as the history, loads it, and returns the session and moved-aside files. */
  async function load(content: string | Buffer) {
    fs.writeFileSync(file, content);
    const session = await store.open(id);
    const aside = fs.readdirSync(dir).filter((n) => n.startsWith('history.corrupt-'));
    return { session, aside };
  }

  it('recovers all complete lines when the last one was cut mid-write', async () => {
    const original = line(a) + line(b) + line(c).slice(0, 25);
    const { session, aside } = await load(original);
    expect(session.messages()).toEqual([a, b]);
    expect(aside).toEqual(['history.corrupt-2026-11-30T20-15-03-123Z.jsonl']);
    const kept = path.join(dir, aside[0]!);
    expect(fs.readFileSync(kept, 'utf8')).toBe(original);
    expect(session.loadWarnings).toHaveLength(1);
    expect(session.loadWarnings[0]).toContain(kept);
    expect(session.loadWarnings[0]).toContain('line 3: cut off');
    expect(session.loadWarnings[0]).toContain('recovered 2 message(s)');
    // The file in place is clean: loading again gives no warning and moves nothing.
    expect(fs.readFileSync(file, 'utf8')).toBe(line(a) + line(b));
    session.close();
    const again = await store.open(id);
    expect(again.loadWarnings).toEqual([]);
    expect(again.messages()).toEqual([a, b]);
  });

  it('skips a garbage line in the middle and keeps the lines after it', async () => {
    const { session, aside } = await load(line(a) + '{"t":"msg","m":{"id":\n' + line(b) + line(c));
    expect(session.messages()).toEqual([a, b, c]);
    expect(aside).toHaveLength(1);
    expect(session.loadWarnings[0]).toContain('line 2: not valid JSON');
  });

  it('rejects well-formed JSON that is not a message record', async () => {
    const bad = JSON.stringify({ t: 'msg', m: { id: 'x', role: 'robot', content: 'hi', at: 1 } });
    const { session } = await load(line(a) + bad + '\n' + '[1,2]\n' + line(b));
    expect(session.messages()).toEqual([a, b]);
    expect(session.loadWarnings[0]).toContain('line 2: bad message (unknown role robot)');
    expect(session.loadWarnings[0]).toContain('line 3: not a record object');
  });

  it('recovers what it can from binary junk (invalid UTF-8, NUL bytes)', async () => {
    const junk = Buffer.from([0xff, 0xfe, 0x00, 0x80, 0x0a, 0x00, 0x00, 0x00]);
    const { session, aside } = await load(Buffer.concat([Buffer.from(line(a)), junk]));
    expect(session.messages()).toEqual([a]);
    expect(aside).toHaveLength(1);
    expect(session.loadWarnings[0]).toContain('line 2: not valid UTF-8');
    expect(session.loadWarnings[0]).toContain('line 3: ');
    expect(fs.readFileSync(path.join(dir, aside[0]!))).toEqual(
      Buffer.concat([Buffer.from(line(a)), junk]),
    );
  });

  it('moves aside a file that is nothing but junk, leaving an empty history', async () => {
    const { session, aside } = await load(Buffer.alloc(64, 0));
    expect(session.messages()).toEqual([]);
    expect(aside).toHaveLength(1);
    expect(fs.readFileSync(file, 'utf8')).toBe('');
  });

  it('never overwrites an earlier moved-aside copy', async () => {
    await load(line(a) + 'junk one\n');
    const { aside } = await load(line(a) + 'junk two\n');
    expect(aside.sort()).toEqual([
      'history.corrupt-2026-11-30T20-15-03-123Z-1.jsonl',
      'history.corrupt-2026-11-30T20-15-03-123Z.jsonl',
    ]);
    const contents = aside.map((n) => fs.readFileSync(path.join(dir, n), 'utf8')).sort();
    expect(contents).toEqual([line(a) + 'junk one\n', line(a) + 'junk two\n']);
  });

  it('treats an empty file, blank lines and a missing file as a clean history', async () => {
    let r = await load('');
    expect([r.session.messages(), r.session.loadWarnings, r.aside]).toEqual([[], [], []]);
    r = await load('\n' + line(a) + '\n\n');
    expect([r.session.messages(), r.session.loadWarnings, r.aside]).toEqual([[a], [], []]);
    fs.rmSync(file);
    const s = await store.open(id);
    expect([s.messages(), s.loadWarnings]).toEqual([[], []]);
    expect(s.append(b)).toEqual({ ok: true });
    expect(fs.readFileSync(file, 'utf8')).toBe(line(b));
  });

  it('accepts a complete last line without a newline and appends after it safely', async () => {
    const { session, aside } = await load(line(a) + line(b).trimEnd());
    expect([session.messages(), session.loadWarnings, aside]).toEqual([[a, b], [], []]);
    expect(session.append(c)).toEqual({ ok: true });
    session.close();
    const again = await store.open(id);
    expect([again.messages(), again.loadWarnings]).toEqual([[a, b, c], []]);
  });

  it('leaves the file alone when no copy can be kept aside, and appends on a new line', async () => {
    const denied = (): never => {
      throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    };
    const noCopies = new SessionStore(tmp.dir, {
      fs: { ...fs, linkSync: denied, copyFileSync: denied },
    });
    const damaged = line(a) + line(b).slice(0, 10);
    fs.writeFileSync(file, damaged);
    const s = await noCopies.open(id);
    expect(s.messages()).toEqual([a]);
    expect(s.loadWarnings[0]).toContain('could not be copied aside (EACCES: permission denied)');
    expect(s.loadWarnings[0]).toContain(`Check the permissions of ${dir}`);
    expect(fs.readFileSync(file, 'utf8')).toBe(damaged);
    // The cut line must not swallow the next record.
    expect(s.append(c)).toEqual({ ok: true });
    s.close();
    expect(fs.readFileSync(file, 'utf8')).toBe(damaged + '\n' + line(c));
    const again = await store.open(id);
    expect(again.messages()).toEqual([a, c]);
  });

  it("moves a folder in the history's place aside whole, and the history starts empty", async () => {
    fs.rmSync(file);
    fs.mkdirSync(file);
    fs.writeFileSync(path.join(file, 'inside.txt'), 'keep me');
    const s = await store.open(id);
    expect(s.messages()).toEqual([]);
    const aside = fs.readdirSync(dir).find((n) => n.startsWith('history.corrupt-'));
    expect(aside).toBeDefined();
    expect(fs.readFileSync(path.join(dir, aside!, 'inside.txt'), 'utf8')).toBe('keep me');
    expect(s.loadWarnings[0]).toContain(path.join(dir, aside!));
  });

  it("reports a folder in the history's place that cannot be moved, with the file name", async () => {
    fs.rmSync(file);
    fs.mkdirSync(file);
    const denied = (): never => {
      throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    };
    const noMoves = new SessionStore(tmp.dir, { fs: { ...fs, renameSync: denied } });
    await expect(noMoves.open(id)).rejects.toThrow(`Cannot read the history file ${file}`);
  });
});
