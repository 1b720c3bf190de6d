import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeMessage } from '../../src/core/messages.js';
import type { HistoryFs } from '../../src/history/fsPort.js';
import { SessionStore } from '../../src/history/sessionStore.js';
import { makeTmpDir } from './tmpDir.js';
import { replyMessage } from '../helpers/replyParts.js';

function sysError(code: string): Error {
  return Object.assign(new Error(`${code}: simulated`), { code });
}

// We run as root, so chmod cannot make a folder unwritable: faults are injected instead.
describe('write errors', () => {
  let tmp: ReturnType<typeof makeTmpDir>;
  let fault: { writeSync?: string; openSync?: string; fsyncSync?: string; partial?: boolean };
  let faultyFs: HistoryFs;

  beforeEach(() => {
    tmp = makeTmpDir();
    fault = {};
    faultyFs = {
      ...fs,
      writeSync: ((fd: number, buf: Buffer, offset: number, length: number) => {
        if (fault.writeSync) {
          // A full disk can take part of a buffer before failing.
          if (fault.partial) {
            fault.partial = false;
            return fs.writeSync(fd, buf, offset, Math.ceil(length / 2));
          }
          throw sysError(fault.writeSync);
        }
        return fs.writeSync(fd, buf, offset, length);
      }) as HistoryFs['writeSync'],
      openSync: ((...args: Parameters<typeof fs.openSync>) => {
        if (fault.openSync) throw sysError(fault.openSync);
        return fs.openSync(...args);
      }) as HistoryFs['openSync'],
      fsyncSync: (fd: number) => {
        if (fault.fsyncSync) throw sysError(fault.fsyncSync);
        fs.fsyncSync(fd);
      },
    };
  });
  afterEach(() => tmp.cleanup());

  async function openSession(durability: 'write' | 'fsync' = 'write') {
    const store = new SessionStore(tmp.dir, { fs: faultyFs, durability });
    const session = await store.create();
    return { store, session, file: path.join(session.dir, 'history.jsonl') };
  }

  it('returns ENOSPC with the fix, keeps the message, and retries it first once space is back', async () => {
    const { store, session, file } = await openSession();
    const a = makeMessage('user', 'saved');
    const b = replyMessage('lost to a full disk?');
    const c = makeMessage('user', 'after the fix');
    expect(session.append(a)).toEqual({ ok: true });

    fault.writeSync = 'ENOSPC';
    const failed = session.append(b);
    expect(failed.ok).toBe(false);
    if (failed.ok) return;
    expect(failed.error.code).toBe('ENOSPC');
    expect(failed.error.message).toContain('Free some disk space');
    expect(failed.error.message).toContain(file);
    expect(session.messages()).toEqual([a, b]);
    expect(session.pendingCount).toBe(1);

    fault.writeSync = undefined;
    expect(session.append(c)).toEqual({ ok: true });
    expect(session.pendingCount).toBe(0);
    session.close();
    const again = await store.open(session.id);
    expect([again.messages(), again.loadWarnings]).toEqual([[a, b, c], []]);
  });

  it('cuts off a partial write so the file still ends on a whole line', async () => {
    const { store, session, file } = await openSession();
    const a = makeMessage('user', 'saved');
    const b = replyMessage('x'.repeat(500));
    expect(session.append(a)).toEqual({ ok: true });
    const sizeBefore = fs.statSync(file).size;
    fault.writeSync = 'ENOSPC';
    fault.partial = true;
    expect(session.append(b).ok).toBe(false);
    expect(fs.statSync(file).size).toBe(sizeBefore);
    fault.writeSync = undefined;
    expect(session.flush()).toEqual({ ok: true });
    session.close();
    const again = await store.open(session.id);
    expect([again.messages(), again.loadWarnings]).toEqual([[a, b], []]);
  });

  it('reports permission problems naming the folder to check', async () => {
    const { session } = await openSession();
    fault.openSync = 'EACCES';
    const result = session.append(makeMessage('user', 'hello'));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('EACCES');
    expect(result.error.message).toContain(`Check the permissions of ${session.dir}`);
    fault.openSync = undefined;
    expect(session.flush()).toEqual({ ok: true });
  });

  it('reports a history path that became a directory', async () => {
    const { session, file } = await openSession();
    fs.rmSync(file);
    fs.mkdirSync(file);
    const result = session.append(makeMessage('user', 'hello'));
    expect(result.ok ? undefined : result.error.code).toBe('EISDIR');
    expect(result.ok ? '' : result.error.message).toContain('is a directory');
    expect(session.pendingCount).toBe(1);
  });

  it('with fsync durability, a failed fsync takes the line back out and retries it', async () => {
    const { store, session, file } = await openSession('fsync');
    const a = makeMessage('user', 'one');
    fault.fsyncSync = 'EIO';
    expect(session.append(a).ok).toBe(false);
    fault.fsyncSync = undefined;
    expect(session.flush()).toEqual({ ok: true });
    session.close();
    expect(fs.readFileSync(file, 'utf8')).toBe(JSON.stringify({ t: 'msg', m: a }) + '\n');
    const again = await store.open(session.id);
    expect([again.messages(), again.loadWarnings]).toEqual([[a], []]);
  });

  it('refuses a malformed message without storing it', async () => {
    const { session } = await openSession();
    const bad = { id: 'x', role: 'user', content: 42, at: 1 } as unknown as ReturnType<
      typeof makeMessage
    >;
    const result = session.append(bad);
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'EINVAL',
        message: 'Cannot save a malformed message (content is not a string).',
      },
    });
    expect(session.messages()).toEqual([]);
  });
});
