import path from 'node:path';
import { errorCode, errorMessage } from './fsPort.js';

/** What went wrong with a write: a Node error code (or our own) and a message with the fix. */
interface HistoryWriteError {
  readonly code: string;
  readonly message: string;
}

/**
 * The outcome of a history write. Never thrown: the agent keeps running and shows the message.
 * On failure the data is still held in memory and retried on the next append.
 */
export type AppendResult = { ok: true } | { ok: false; error: HistoryWriteError };

export const OK: AppendResult = Object.freeze({ ok: true });

/** Turns a thrown file-system error into a typed error saying what failed and how to fix it. */
export function describeWriteError(err: unknown, file: string): HistoryWriteError {
  const code = errorCode(err) ?? 'EUNKNOWN';
  const dir = path.dirname(file);
  const kept = 'Cogito keeps the unsaved messages in memory and retries on the next message.';
  let what: string;
  switch (code) {
    case 'ENOSPC':
      what = `The disk is full: could not save history to ${file}. Free some disk space.`;
      break;
    case 'EDQUOT':
      what = `Disk quota exceeded: could not save history to ${file}. Free space or raise the quota.`;
      break;
    case 'EACCES':
    case 'EPERM':
      what = `Permission denied writing ${file}. Check the permissions of ${dir} (or use --home DIR).`;
      break;
    case 'EROFS':
      what = `${dir} is on a read-only file system, so history cannot be saved there. Use --home DIR on a writable disk.`;
      break;
    case 'EISDIR':
      what = `${file} is a directory, not a history file. Move it out of the way.`;
      break;
    case 'ENOENT':
    case 'ENOTDIR':
      what = `The session folder ${dir} is missing. Check that the data folder was not moved or deleted.`;
      break;
    default:
      what = `Could not save history to ${file}: ${errorMessage(err)}.`;
  }
  return { code, message: `${what} ${kept}` };
}
