/**
 * `realpath` for paths that may not exist yet: the longest existing prefix is resolved
 * (symlinks followed) and the missing rest is appended. A dangling symlink along the way
 * is followed to where it points, so `create("link/new.txt")` through a link to an outside
 * folder, or a write through a dangling link, is judged by where it would really land.
 */
import fs from 'node:fs/promises';
import path from 'node:path';

/** Same bound as the kernel's symlink loop limit. */
const MAX_LINKS = 40;

/** Resolves `abs` to its real location, tolerating a missing tail. */
export async function realpathLoose(abs: string, hops = 0): Promise<string> {
  if (hops > MAX_LINKS) {
    throw new Error(`too many levels of symbolic links at ${abs}`);
  }
  try {
    return await fs.realpath(abs);
  } catch (e) {
    if (!isMissing(e)) throw e;
  }
  const parent = path.dirname(abs);
  if (parent === abs) return abs;
  const realParent = await realpathLoose(parent, hops);
  const candidate = path.join(realParent, path.basename(abs));
  let isLink = false;
  try {
    isLink = (await fs.lstat(candidate)).isSymbolicLink();
  } catch {
    return candidate; // nothing there yet
  }
  if (!isLink) return candidate;
  // A symlink whose target does not exist (yet): judge by where the target would be.
  const target = await fs.readlink(candidate);
  return realpathLoose(path.resolve(realParent, target), hops + 1);
}

function isMissing(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
