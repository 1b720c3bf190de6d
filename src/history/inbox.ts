import { jsonObject } from '../core/jsonObject.js';
import path from 'node:path';
import type { AppendResult } from './appendResult.js';
import { atomicWriteFileSync, errorCode, errorMessage, realFs } from './fsPort.js';
import type { HistoryFs } from './fsPort.js';
import { JsonlLog } from './jsonlLog.js';
import { keepAside } from '../core/keepAside.js';

/**
 * The session's inbox: every message the user gave the agent that no turn has taken yet
 * (`cogito send`, a screen's queue key, a remote screen, a message typed while the agent
 * works), appended with fsync to `inbox.jsonl` in the session folder before the sender is
 * told it is queued. A turn that takes a message writes it to the history under the same id,
 * then marks it done here. After a kill, the next start gives the agent what is neither done
 * nor in the history, in order: each acknowledged message is answered once.
 *
 * Lines: `{"t":"in","id","text","at"}` (queued), `{"t":"edit","id","text"}` (edited while
 * queued), `{"t":"done","ids":[…]}` (taken by a turn, or dropped). A line cut by a kill
 * mid-write was never acknowledged (the fsync had not returned) and is skipped.
 */
export const INBOX_FILE = 'inbox.jsonl';

/** One message waiting for a turn. `id` is the id its history message gets. */
export interface InboxItem {
  id: string;
  text: string;
  at: number;
}

type Line =
  | { t: 'in'; id: string; text: string; at: number }
  | { t: 'edit'; id: string; text: string }
  | { t: 'done'; ids: string[] };

function parseLine(text: string): Line | undefined {
  const r = jsonObject(text);
  if (!r) return undefined;
  if (r.t === 'in' && typeof r.id === 'string' && typeof r.text === 'string')
    return { t: 'in', id: r.id, text: r.text, at: typeof r.at === 'number' ? r.at : 0 };
  if (r.t === 'edit' && typeof r.id === 'string' && typeof r.text === 'string')
    return { t: 'edit', id: r.id, text: r.text };
  if (r.t === 'done' && Array.isArray(r.ids) && r.ids.every((i) => typeof i === 'string'))
    return { t: 'done', ids: r.ids as string[] };
  return undefined;
}

/** What loading an inbox found: the messages still to deliver, in order, and any problem. */
export interface LoadedInbox {
  pending: InboxItem[];
  warnings: string[];
}

/**
 * Reads `dir`'s inbox: the messages queued and not done, less those already in the history
 * (`inHistory`: a turn wrote it, the kill came before its "done"). Rewrites the file to just
 * those (atomically), so it never grows. A file that does not read at all is kept aside.
 */
export function loadInbox(
  dir: string,
  inHistory: (id: string) => boolean,
  opts: { fs?: HistoryFs; now?: number } = {},
): LoadedInbox {
  const fs = opts.fs ?? realFs;
  const file = path.join(dir, INBOX_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return { pending: [], warnings: [] };
    return { pending: [], warnings: [unreadable(fs, file, err, opts.now ?? Date.now())] };
  }
  const items = new Map<string, InboxItem>();
  let bad = 0;
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    const line = parseLine(raw);
    if (!line) {
      bad += 1;
      continue;
    }
    if (line.t === 'in') items.set(line.id, { id: line.id, text: line.text, at: line.at });
    else if (line.t === 'edit') {
      const item = items.get(line.id);
      if (item) item.text = line.text;
    } else for (const id of line.ids) items.delete(id);
  }
  const pending = [...items.values()].filter((i) => !inHistory(i.id));
  const warnings: string[] = [];
  // Only the last line can be cut by a kill; damage elsewhere is kept for the user to see.
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const tornTail = bad === 1 && parseLine(lines.at(-1) ?? '') === undefined;
  if (bad > 0 && !tornTail) {
    try {
      const aside = keepAside(fs, file, opts.now ?? Date.now());
      warnings.push(
        `${bad} line(s) of the queued messages in ${file} did not read; the original was kept as ${aside}.`,
      );
    } catch (err) {
      warnings.push(`The queued messages in ${file} are damaged: ${errorMessage(err)}.`);
      return { pending, warnings };
    }
  }
  try {
    atomicWriteFileSync(
      fs,
      file,
      pending.map((i) => `${JSON.stringify({ t: 'in', ...i })}\n`).join(''),
    );
  } catch {
    // The old file stays; it still reads to the same messages next time.
  }
  return { pending, warnings };
}

/**
 * The warning for an inbox that does not read at all. A folder in its place is moved aside
 * whole (keepAside), so the next message can be queued; a file that cannot be read stays.
 */
function unreadable(fs: HistoryFs, file: string, err: unknown, now: number): string {
  if (errorCode(err) === 'EISDIR') {
    try {
      const aside = keepAside(fs, file, now);
      return `A folder stood where the queued messages belong (${file}); it was moved aside as ${aside}, and new messages queue again.`;
    } catch (moveErr) {
      return `A folder stands where the queued messages belong (${file}) and could not be moved aside (${errorMessage(moveErr)}): remove it, or no message can be queued.`;
    }
  }
  return `The queued messages in ${file} could not be read (${errorMessage(err)}).`;
}

/** Appends to one session's inbox, each line on disk (fsync) before it returns ok. */
export class Inbox {
  private readonly log: JsonlLog;

  constructor(
    readonly dir: string,
    fs: HistoryFs = realFs,
  ) {
    this.log = new JsonlLog(path.join(dir, INBOX_FILE), { fs, durability: 'fsync' });
  }

  add(item: InboxItem): AppendResult {
    return this.log.append([JSON.stringify({ t: 'in', ...item })]);
  }

  edit(id: string, text: string): AppendResult {
    return this.log.append([JSON.stringify({ t: 'edit', id, text })]);
  }

  done(ids: readonly string[]): AppendResult {
    if (ids.length === 0) return { ok: true };
    return this.log.append([JSON.stringify({ t: 'done', ids })]);
  }

  close(): void {
    this.log.close();
  }
}
