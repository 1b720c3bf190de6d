import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HistoryFs } from '../../src/history/fsPort.js';
import { SessionStore } from '../../src/history/sessionStore.js';
import { makeTmpDir } from './tmpDir.js';
import { replyMessage } from '../helpers/replyParts.js';

/** `node:fs` with every call recorded (name and the first argument). */
function spyFs(): { fs: HistoryFs; calls: { name: string; args: unknown[] }[] } {
  const calls: { name: string; args: unknown[] }[] = [];
  const wrapped: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(fs)) {
    wrapped[name] =
      typeof fn === 'function'
        ? (...args: unknown[]) => {
            calls.push({ name, args });
            return (fn as (...a: unknown[]) => unknown)(...args);
          }
        : fn;
  }
  return { fs: wrapped as unknown as HistoryFs, calls };
}

describe('appending', () => {
  let tmp: ReturnType<typeof makeTmpDir>;
  afterEach(() => tmp.cleanup());

  it('adds exactly one line to a 10,000-message history without reading or rewriting it', async () => {
    tmp = makeTmpDir();
    const spy = spyFs();
    const store = new SessionStore(tmp.dir, { fs: spy.fs });
    const created = await store.create();
    created.close();
    const file = path.join(created.dir, 'history.jsonl');
    const lines: string[] = [];
    for (let i = 0; i < 10_000; i += 1) {
      lines.push(JSON.stringify({ t: 'msg', m: replyMessage(`message ${i}`) }));
    }
    fs.writeFileSync(file, lines.join('\n') + '\n');

    const session = await store.open(created.id);
    expect(session.messages()).toHaveLength(10_000);
    const sizeBefore = fs.statSync(file).size;
    spy.calls.length = 0;

    const msg = replyMessage('one more, 多一条');
    expect(session.append(msg)).toEqual({ ok: true });

    const expectedLine = JSON.stringify({ t: 'msg', m: msg }) + '\n';
    expect(fs.statSync(file).size - sizeBefore).toBe(Buffer.byteLength(expectedLine));
    expect(fs.readFileSync(file, 'utf8').endsWith(expectedLine)).toBe(true);
    const names = spy.calls.map((c) => c.name);
    for (const forbidden of [
      'readFileSync',
      'writeFileSync',
      'renameSync',
      'copyFileSync',
      'ftruncateSync',
    ]) {
      expect(names).not.toContain(forbidden);
    }
    // Opening the descriptor checks one byte (is the last line whole?) and nothing more.
    const reads = spy.calls.filter((c) => c.name === 'readSync');
    expect(reads.every((c) => c.args[3] === 1)).toBe(true);
    expect(names.filter((n) => n === 'writeSync')).toHaveLength(1);

    // Later appends reuse the open descriptor: one write each, nothing else.
    spy.calls.length = 0;
    expect(session.append(replyMessage('again'))).toEqual({ ok: true });
    expect(spy.calls.map((c) => c.name)).toEqual(['writeSync']);
    session.close();
  });
});
