/**
 * The attack on the queue's journal (`inbox.jsonl`, in the session folder): cut by a few
 * bytes, junk bytes after its last line, a folder in its place, deleted. Nothing readable is
 * lost, a damaged original is kept aside before the file is rewritten, the warning names the
 * copy, and a message can be queued again afterwards.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INBOX_FILE, Inbox, loadInbox } from '../../src/history/inbox.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-inbox-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const file = (): string => path.join(dir, INBOX_FILE);
const asides = (): string[] => fs.readdirSync(dir).filter((n) => n.includes('.corrupt-'));

/** Three messages queued, the first one taken by a turn. */
function queueThree(): void {
  const inbox = new Inbox(dir);
  for (const [id, text] of [
    ['m1', 'first'],
    ['m2', 'second'],
    ['m3', 'third'],
  ] as const)
    expect(inbox.add({ id, text, at: 1 }).ok).toBe(true);
  expect(inbox.done(['m1']).ok).toBe(true);
  inbox.close();
}

const never = (): boolean => false;

describe('a damaged queue journal', () => {
  it('cut by 4 bytes: the cut last line was never acknowledged; the rest are delivered', () => {
    queueThree();
    const whole = fs.readFileSync(file());
    // Cut into the "done" line: m1 comes back (its turn's history message is the guard).
    fs.writeFileSync(file(), whole.subarray(0, whole.length - 4));
    const loaded = loadInbox(dir, (id) => id === 'm1');
    expect(loaded.pending.map((i) => i.text)).toEqual(['second', 'third']);
    // A torn tail is what a kill leaves: no warning, nothing kept aside.
    expect(loaded.warnings).toEqual([]);
  });

  it('junk bytes after the last line: the original is kept aside, named, and every message delivered', () => {
    queueThree();
    const before = fs.readFileSync(file());
    fs.appendFileSync(file(), Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x0a, 0x5b, 0x0a]));
    const damaged = fs.readFileSync(file());
    const loaded = loadInbox(dir, never);
    expect(loaded.pending.map((i) => i.text)).toEqual(['second', 'third']);
    const [aside] = asides();
    expect(aside).toBeDefined();
    expect(loaded.warnings.join('\n')).toContain(path.join(dir, aside!));
    expect(fs.readFileSync(path.join(dir, aside!))).toEqual(damaged);
    expect(damaged.subarray(0, before.length)).toEqual(before);
    // The rewritten file reads clean, and a new message queues after the kept ones.
    const inbox = new Inbox(dir);
    expect(inbox.add({ id: 'm4', text: 'fourth', at: 2 }).ok).toBe(true);
    inbox.close();
    const again = loadInbox(dir, never);
    expect(again.pending.map((i) => i.text)).toEqual(['second', 'third', 'fourth']);
    expect(again.warnings).toEqual([]);
  });

  it('a folder in its place: moved aside whole, named, and messages queue again', () => {
    fs.mkdirSync(file());
    fs.writeFileSync(path.join(file(), 'inside.txt'), 'kept');
    const loaded = loadInbox(dir, never);
    expect(loaded.pending).toEqual([]);
    const [aside] = asides();
    expect(aside).toBeDefined();
    expect(loaded.warnings.join('\n')).toContain(path.join(dir, aside!));
    expect(fs.readFileSync(path.join(dir, aside!, 'inside.txt'), 'utf8')).toBe('kept');
    const inbox = new Inbox(dir);
    expect(inbox.add({ id: 'm1', text: 'after the folder', at: 1 }).ok).toBe(true);
    inbox.close();
    expect(loadInbox(dir, never).pending.map((i) => i.text)).toEqual(['after the folder']);
  });

  it('deleted: nothing waits, no warning, and messages queue again', () => {
    queueThree();
    fs.rmSync(file());
    expect(loadInbox(dir, never)).toEqual({ pending: [], warnings: [] });
    const inbox = new Inbox(dir);
    expect(inbox.add({ id: 'm9', text: 'new', at: 1 }).ok).toBe(true);
    inbox.close();
    expect(loadInbox(dir, never).pending.map((i) => i.text)).toEqual(['new']);
  });
});
