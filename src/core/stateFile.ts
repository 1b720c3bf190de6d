/**
 * Reading a state file that is rewritten whole (reminders, the registry, …) without ever
 * losing what it held: what was found (missing, text, unreadable) and, when it is damaged,
 * a copy kept aside before the caller writes anything new over it.
 */
import { Buffer } from 'node:buffer';
import { errorCode, errorMessage } from './fsPort.js';
import type { HistoryFs } from './fsPort.js';
import { keepAside } from './keepAside.js';

/** What reading a state file found. */
export type StateText =
  | { kind: 'missing' }
  | { kind: 'text'; text: string }
  /** There, but not text: a folder in its place, binary junk, no permission (`problem` says). */
  | { kind: 'unreadable'; problem: string };

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The problem named when a state file holds bytes that are not UTF-8. */
export const NOT_UTF8 = 'not valid UTF-8 text (binary data)';

/** Reads `file` as UTF-8 text; a missing file is `missing`, never an error. */
export function readStateText(fs: HistoryFs, file: string): StateText {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT') return { kind: 'missing' };
    if (code === 'EISDIR') return { kind: 'unreadable', problem: 'a folder is in its place' };
    return { kind: 'unreadable', problem: errorMessage(err) };
  }
  try {
    return { kind: 'text', text: decoder.decode(Buffer.from(buf)) };
  } catch {
    return { kind: 'unreadable', problem: NOT_UTF8 };
  }
}

/** Where the damaged original went, or why no copy could be made (then: do not overwrite). */
export type Aside = { ok: true; aside: string } | { ok: false; problem: string };

/** Keeps the damaged `file` aside as `<name>.corrupt-<time>` (see `keepAside`). */
export function setAside(fs: HistoryFs, file: string, now: number = Date.now()): Aside {
  try {
    return { ok: true, aside: keepAside(fs, file, now) };
  } catch (err) {
    return { ok: false, problem: errorMessage(err) };
  }
}
