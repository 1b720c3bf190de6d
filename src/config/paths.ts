import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Expands a leading `~` to the user's home folder; other paths are returned as given. */
export function expandTilde(p: string): string {
  if (p === '~') return os.homedir();
  if (p.startsWith('~/') || p.startsWith('~\\')) return path.join(os.homedir(), p.slice(2));
  return p;
}

/**
 * The folder holding Cogito's own package.json. Found by walking up from this file rather
 * than by a fixed `../..`, so it keeps working if the sources move or get bundled.
 */
export function projectRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && isCogitoManifest(manifest)) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  // Not found (an unusual install): two levels up from src/config/ is the project layout.
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
}

function isCogitoManifest(file: string): boolean {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return (
      typeof parsed === 'object' && parsed !== null && 'name' in parsed && parsed.name === 'cogito'
    );
  } catch {
    return false;
  }
}

/**
 * Where the app home came from, for messages such as "config from --home /x": the flag, the
 * environment, the project folder of a git checkout, or the user's folder (`~/.cogito`) for
 * an installed copy.
 */
export type HomeSource = 'flag' | 'env' | 'project' | 'user';

/** The app home's folder name inside the user's home folder, for an installed copy. */
const USER_HOME_DIR = '.cogito';

/**
 * Whether Cogito runs from a git checkout of itself (the folder holds `.git`: a folder in a
 * clone, a file in a worktree). An installed copy (npm install -g) never does.
 */
export function isCheckout(root: string = projectRoot()): boolean {
  return existsSync(path.join(root, '.git'));
}

/** Inputs of {@link resolveHome}; each defaults to the real one. */
interface ResolveHomeOptions {
  flag?: string | undefined;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Cogito's own folder (tests): decides checkout or installed copy. */
  installRoot?: string;
  /** The user's home folder (tests); `os.homedir()`, which is %USERPROFILE% on Windows. */
  userHome?: string;
}

/**
 * Resolves the app home: the `--home` flag, else `COGITO_HOME`, else the project folder in a
 * git checkout of Cogito, else `~/.cogito`: an installed copy must never keep data inside
 * its package folder (an upgrade or uninstall deletes it, and a system Node's folder is not
 * writable). Relative paths resolve against `cwd`; `~` expands to the user's home folder.
 * Nothing is created here: the folder is made (0700) when something is first written.
 */
export function resolveHome(opts: ResolveHomeOptions = {}): { home: string; source: HomeSource } {
  const cwd = opts.cwd ?? process.cwd();
  // A folder is taken exactly: a trailing space names another folder.
  const flag = opts.flag?.trim() ? opts.flag : undefined;
  if (flag) return { home: path.resolve(cwd, expandTilde(flag)), source: 'flag' };
  const fromEnv = opts.env?.COGITO_HOME?.trim();
  if (fromEnv) return { home: path.resolve(cwd, expandTilde(fromEnv)), source: 'env' };
  const root = opts.installRoot ?? projectRoot();
  if (isCheckout(root)) return { home: root, source: 'project' };
  return { home: path.join(opts.userHome ?? os.homedir(), USER_HOME_DIR), source: 'user' };
}

/** Well-known locations inside an app home. */
interface AppPaths {
  home: string;
  /** `config.json`: settings, including the API key (kept 0600). */
  config: string;
  /** Runtime data: history, archives, traces. */
  data: string;
  /** User personas dropped into the home (in addition to the built-in ones). */
  personas: string;
  /** A single custom persona file at the home's top level. */
  persona: string;
  /** Downloaded GGUF models (`--download-model`, the wizard's Private choice). */
  models: string;
  /** Where `/export` writes transcripts (inside the runtime data). */
  exports: string;
  /** `--debug` logs, one file per day (inside the runtime data). */
  logs: string;
  /** Text extracted from documents (PDF, Office…), so a second read or grep extracts nothing. */
  documentCache: string;
}

/** The locations Cogito reads and writes inside `home`. */
export function appPaths(home: string): AppPaths {
  const data = path.join(home, 'data');
  return {
    home,
    config: path.join(home, 'config.json'),
    data,
    personas: path.join(home, 'personas'),
    persona: path.join(home, 'persona.md'),
    models: path.join(home, 'models'),
    exports: path.join(data, 'exports'),
    logs: path.join(data, 'logs'),
    documentCache: path.join(data, 'cache', 'documents'),
  };
}

/** The skills shipped with Cogito (docs/SKILLS.md). */
export function builtinSkillsDir(): string {
  return path.join(projectRoot(), 'skills');
}

/** The built-in personas shipped with Cogito. */
export function builtinPersonasDir(): string {
  return path.join(projectRoot(), 'personas');
}

/**
 * The lock file name older versions kept in the home root (one Cogito per home). It is no
 * longer written; it stays among Cogito's own files so no tool writes one there.
 */
export const LOCK_FILE = 'cogito.lock';
