/**
 * Where instruction files are looked for: the user's own in the app home, then each folder
 * from the git root (or the workspace root, outside a repository) down to the workspace, and
 * later each subfolder a tool touches. In each folder the first name of the configured list
 * that exists is the folder's file (`AGENTS.md`, else `CLAUDE.md`, else `GEMINI.md`), so a
 * folder kept for several agents is read once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The folder's instruction file (its real path), or undefined when it has none. */
export function fileIn(dir: string, names: readonly string[]): string | undefined {
  for (const name of names) {
    const abs = path.join(dir, name);
    try {
      if (fs.statSync(abs).isFile()) return fs.realpathSync(abs);
    } catch {
      // not there: the next name
    }
  }
  return undefined;
}

/**
 * The folders whose files load at start, outermost first: the git root (the nearest folder
 * holding `.git`, a folder in a clone or a file in a worktree) down to `root`; only `root`
 * when it is in no repository.
 */
export function startFolders(root: string): string[] {
  const chain: string[] = [];
  let dir = root;
  for (;;) {
    // The user's home folder (a dotfiles repository) and the file system's root are no project.
    if (dir !== root && dir === os.homedir()) return [root];
    chain.unshift(dir);
    if (fs.existsSync(path.join(dir, '.git'))) return chain;
    const parent = path.dirname(dir);
    if (parent === dir) return [root];
    dir = parent;
  }
}

/** `abs` for people: `~/…` under the user's home folder, else as it is. */
export function shownPath(abs: string): string {
  const home = os.homedir();
  const rel = path.relative(home, abs);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? `~/${rel}` : abs;
}

/** The file and mtime/size stamp of each name in `dir`, so a change (or a new file) shows. */
export function folderStamp(dir: string, names: readonly string[]): string {
  return names
    .map((name) => {
      try {
        const st = fs.statSync(path.join(dir, name));
        return `${name}:${st.mtimeMs}:${st.size}`;
      } catch {
        return `${name}:-`;
      }
    })
    .join('|');
}

/** The mtime/size stamp of one file ('-' when it is gone). */
export function fileStamp(abs: string): string {
  try {
    const st = fs.statSync(abs);
    return `${st.mtimeMs}:${st.size}`;
  } catch {
    return '-';
  }
}
