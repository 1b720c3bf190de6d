import { constants } from 'node:fs';
import path from 'node:path';
import { errorCode } from './fsPort.js';
import type { HistoryFs } from './fsPort.js';

/**
 * The name a damaged state file is kept under: `<name>.corrupt-<time><ext>` next to it,
 * `-1`, `-2` … added when that name is taken (never overwriting anything).
 */
function asideName(file: string, now: number, n: number): string {
  const ext = path.extname(file);
  const base = path.join(path.dirname(file), path.basename(file, ext));
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  return `${base}.corrupt-${stamp}${n === 0 ? '' : `-${n}`}${ext}`;
}

/**
 * Keeps a damaged state file under a new, unused name (see {@link asideName}) BEFORE anything
 * new is written to its place, and returns that name. A file stays where it is: a hard link
 * (instant, no copy) or, where links are unsupported, an exclusive copy, so a crash in between
 * leaves the original in place and the caller's atomic rewrite replaces only the name. A folder
 * standing where the file belongs is moved aside whole (it cannot be linked or copied, and
 * the file cannot be written while it is there). Throws when no copy could be made: then the
 * caller must not write over the original.
 */
export function keepAside(fs: HistoryFs, file: string, now: number = Date.now()): string {
  const folder = isFolder(fs, file);
  for (let n = 0; n < 100; n += 1) {
    const aside = asideName(file, now, n);
    if (folder) {
      if (exists(fs, aside)) continue;
      fs.renameSync(file, aside);
      return aside;
    }
    try {
      fs.linkSync(file, aside);
      return aside;
    } catch (err) {
      const code = errorCode(err);
      if (code === 'EEXIST') continue;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS')
        throw err;
    }
    try {
      fs.copyFileSync(file, aside, constants.COPYFILE_EXCL);
      return aside;
    } catch (err) {
      if (errorCode(err) !== 'EEXIST') throw err;
    }
  }
  throw new Error(`too many damaged copies named ${asideName(file, now, 0)}*`);
}

function isFolder(fs: HistoryFs, file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function exists(fs: HistoryFs, file: string): boolean {
  try {
    fs.statSync(file);
    return true;
  } catch (err) {
    return errorCode(err) !== 'ENOENT';
  }
}
