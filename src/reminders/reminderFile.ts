/**
 * Where a folder's reminders are kept between runs: one small JSON file per workspace in the
 * app home (`data/reminders/<hash of the folder>.json`), so every session opened on that
 * folder sees them, a restart keeps them, and two instances on two folders never write the
 * same file.
 */
import { t, type Lang } from '../i18n/messages.js';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
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

/** Reads the saved reminders; a missing file is none, a damaged one is reported and skipped. */
export function readReminderFile(
  file: string,
  lang: Lang = 'en',
): { reminders: Reminder[]; warning?: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { reminders: [] };
    return { reminders: [], warning: unreadable(file, (err as Error).message, lang) };
  }
  try {
    const body = JSON.parse(text) as Partial<ReminderFileBody>;
    const list = Array.isArray(body.reminders) ? body.reminders : [];
    return { reminders: list.filter(isReminder) };
  } catch (err) {
    return { reminders: [], warning: unreadable(file, (err as Error).message, lang) };
  }
}

/** Writes the list whole (temp file + rename: a crash leaves the old list or the new one). */
export function writeReminderFile(
  file: string,
  workspace: string,
  list: readonly Reminder[],
): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const body: ReminderFileBody = { workspace, reminders: [...list] };
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
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
 * A problem reading or writing goes to `warn` (once for writing) and the run goes on with
 * the list in memory. `leaveSaved` (print mode): the saved ones are never taken, see
 * `Reminders`.
 */
export function openReminders(
  dataDir: string,
  workspace: string,
  warn: (message: string) => void,
  lang: Lang = 'en',
  opts: { leaveSaved?: boolean } = {},
): Reminders {
  const file = reminderFilePath(dataDir, workspace);
  const loaded = readReminderFile(file, lang);
  if (loaded.warning) warn(loaded.warning);
  let warned = false;
  return new Reminders(
    {
      saved: loaded.reminders,
      save: (list) => {
        try {
          writeReminderFile(file, workspace, list);
        } catch (err) {
          if (warned) return;
          warned = true;
          warn(t(lang, 'notice.remindersUnsaved', { file, why: (err as Error).message }));
        }
      },
    },
    opts,
  );
}
