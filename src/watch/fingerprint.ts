import { createHash } from 'node:crypto';
import { opendir, stat } from 'node:fs/promises';
import path from 'node:path';
import { ALWAYS_IGNORED } from './ignore.js';

/** The walk stops here: past it, the fingerprint covers the first entries only. */
const MAX_ENTRIES = 5000;

/**
 * A cheap fingerprint of the workspace tree: paths, sizes and modification times, no file
 * contents. Two equal fingerprints mean nothing visible changed, so a timer wake-up after a
 * "nothing new" cycle can be skipped without a request. Never throws: an unreadable folder
 * simply counts as empty.
 */
export async function treeFingerprint(
  root: string,
  ignore?: (rel: string) => boolean,
): Promise<string> {
  const hash = createHash('sha1');
  let seen = 0;
  const walk = async (dir: string): Promise<void> => {
    let handle;
    try {
      handle = await opendir(dir);
    } catch {
      return;
    }
    const names: string[] = [];
    for await (const entry of handle) names.push(entry.name);
    names.sort();
    for (const name of names) {
      if (seen >= MAX_ENTRIES) return;
      if (ALWAYS_IGNORED.has(name)) continue;
      const abs = path.join(dir, name);
      const rel = path.relative(root, abs).split(path.sep).join('/');
      if (ignore?.(rel)) continue;
      seen += 1;
      const st = await stat(abs).catch(() => undefined);
      if (!st) continue;
      hash.update(`${rel}\0${st.size}\0${st.mtimeMs}\n`);
      if (st.isDirectory()) await walk(abs);
    }
  };
  await walk(root);
  return hash.digest('hex');
}
