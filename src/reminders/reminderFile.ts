/**
 * Where a folder's reminders are kept between runs: one small JSON file per workspace in the
 * app home (`data/reminders/<hash of the folder>.json`), so every session opened on that
 * folder sees them, a restart keeps them, and two instances on two folders never write the
 * same file.
 */
import { t, type Lang } from '../i18n/messages.js';
import { createHash } from 'node:crypto';
import { atomicWriteFileSync, realFs, type HistoryFs } from '../core/fsPort.js';
import { readStateText, setAside } from '../core/stateFile.js';
import path from 'node:path';
import { Reminders, type Reminder } from './reminders.js';

/** The file's shape: the folder it belongs to (for a person reading it) and the list. */
interface ReminderFileBody {
  workspace: string;
  reminders: Reminder[];
}

/** The reminders file of `workspace` inside the data folder `dataDir`. */
export function reminderFilePath(dataDir: string, workspace: string): string {
  const key = createHash('sha256').update(workspace).digest('hex').slice(0, 16);
  return path.join(dataDir, 'reminders', `${key}.json`);
}

/**
 * Reads the saved reminders: a missing file is none. A damaged one (cut, junk bytes, a folder
 * in its place, entries that are not reminders) yields what could still be read, `damaged`
 * saying why and `warning` the message for the user. Only reads: keeping the damaged file
 * aside is {@link openReminders}'s job, before its first write.
 */
export function readReminderFile(
  file: string,
  lang: Lang = 'en',
  fs: HistoryFs = realFs,
): { reminders: Reminder[]; warning?: string; damaged?: string } {
  const read = readStateText(fs, file);
  if (read.kind === 'missing') return { reminders: [] };
  const parsed = read.kind === 'text' ? parseBody(read.text) : { reminders: [], why: read.problem };
  if (parsed.why === undefined) return { reminders: parsed.reminders };
  return {
    reminders: parsed.reminders,
    damaged: parsed.why,
    warning: unreadable(file, parsed.why, lang),
  };
}

/** The reminders in a file's text, and why it is damaged when anything in it is not one. */
function parseBody(text: string): { reminders: Reminder[]; why?: string } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    return { reminders: [], why: (err as Error).message };
  }
  const list = (body as Partial<ReminderFileBody> | null)?.reminders;
  if (!Array.isArray(list)) return { reminders: [], why: 'it holds no list of reminders' };
  const reminders = list.filter(isReminder);
  const bad = list.length - reminders.length;
  return bad === 0 ? { reminders } : { reminders, why: `${bad} entry(ies) are not reminders` };
}

/**
 * Writes the list whole, atomically (temp file, fsync, rename, fsync of the folder: a crash
 * leaves the old list or the new one).
 */
export function writeReminderFile(
  file: string,
  workspace: string,
  list: readonly Reminder[],
  fs: HistoryFs = realFs,
): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const body: ReminderFileBody = { workspace, reminders: [...list] };
  atomicWriteFileSync(fs, file, `${JSON.stringify(body, null, 2)}\n`);
}

function unreadable(file: string, why: string, lang: Lang): string {
  return t(lang, 'notice.remindersUnreadable', { file, why });
}

function isReminder(r: unknown): r is Reminder {
  if (typeof r !== 'object' || r === null) return false;
  const x = r as Record<string, unknown>;
  return (
    typeof x.id === 'number' &&
    typeof x.at === 'number' &&
    typeof x.what === 'string' &&
    (x.by === 'model' || x.by === 'user')
  );
}

/**
 * The reminders of `workspace`, loaded from the app home and saved there on every change.
 * A damaged file is kept aside as `<name>.corrupt-<time>.json` before anything new is written
 * (the warning names the copy) and the readable reminders go on; when no copy can be made the
 * file is left untouched and the list lives in memory for this run. A problem writing goes to
 * `writeFailed` (the agent pauses with it; without one, `warn` once), the last good file
 * stays, and the list lives on in memory.
 * `leaveSaved` (print mode): the saved ones are never taken, see `Reminders`.
 */
export function openReminders(
  dataDir: string,
  workspace: string,
  warn: (message: string) => void,
  lang: Lang = 'en',
  opts: {
    leaveSaved?: boolean;
    fs?: HistoryFs;
    now?: () => number;
    /** A save that failed (each time; the agent pauses); absent: `warn`, once. */
    writeFailed?: (problem: string) => void;
  } = {},
): Reminders {
  const { fs = realFs, now = Date.now } = opts;
  const file = reminderFilePath(dataDir, workspace);
  const loaded = readReminderFile(file, lang, fs);
  let frozen = false;
  if (loaded.damaged !== undefined) {
    const kept = setAside(fs, file, now());
    const count = loaded.reminders.length;
    if (kept.ok) {
      warn(
        t(lang, 'notice.remindersKeptAside', {
          file,
          why: loaded.damaged,
          aside: kept.aside,
          count,
        }),
      );
    } else {
      frozen = true;
      warn(
        t(lang, 'notice.remindersNotCopied', { file, why: loaded.damaged, problem: kept.problem }),
      );
    }
  }
  let warned = false;
  return new Reminders(
    {
      saved: loaded.reminders,
      save: (list) => {
        // Without a copy of the damaged file, writing over it could lose what it held.
        if (frozen) return;
        try {
          writeReminderFile(file, workspace, list, fs);
        } catch (err) {
          const problem = t(lang, 'notice.remindersUnsaved', { file, why: (err as Error).message });
          if (opts.writeFailed) return opts.writeFailed(problem);
          if (warned) return;
          warned = true;
          warn(problem);
        }
      },
    },
    { ...(opts.leaveSaved !== undefined ? { leaveSaved: opts.leaveSaved } : {}) },
  );
}
