import { createHash } from 'node:crypto';
import { lstat, opendir } from 'node:fs/promises';
import path from 'node:path';
import type { IgnoreTest } from './ignore.js';

/** The walk stops here: past it, the fingerprint covers the first entries only. */
const MAX_ENTRIES = 5000;

/**
 * A cheap fingerprint of the workspace tree: paths, sizes and modification times, no file
 * contents. Two equal fingerprints mean nothing visible changed, so a timer wake-up after a
 * "nothing new" cycle can be skipped without a request. Symbolic links are fingerprinted as
 * links (`lstat`), never followed, so a link loop (`loop -> .`) costs one entry. Never throws:
 * an unreadable folder simply counts as empty.
 */
export async function treeFingerprint(root: string, ignore?: IgnoreTest): Promise<string> {
  const hash = createHash('sha1');
  let seen = 0;
  const walk = async (dir: string): Promise<void> => {
    let handle;
    try {
      handle = await opendir(dir);
    } catch {
      return;
    }
    const entries: { name: string; dir: boolean }[] = [];
    try {
      for await (const entry of handle) {
        entries.push({ name: entry.name, dir: entry.isDirectory() });
        // A huge folder is not read to its end: the cap is reached in it anyway.
        if (entries.length > MAX_ENTRIES) break;
      }
    } catch {
      // A folder removed while read: what was read so far counts.
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const { name, dir: isDir } of entries) {
      if (seen >= MAX_ENTRIES) return;
      const abs = path.join(dir, name);
      const rel = path.relative(root, abs).split(path.sep).join('/');
      if (ignore?.(rel, isDir)) continue;
      seen += 1;
      const st = await lstat(abs).catch(() => undefined);
      if (!st) continue;
      hash.update(`${rel}\0${st.size}\0${st.mtimeMs}\n`);
      if (st.isDirectory()) await walk(abs);
    }
  };
  await walk(root);
  return hash.digest('hex');
}
