import { readFileSync } from 'node:fs';
import path from 'node:path';
import ignoreLib from 'ignore';

/**
 * Folder names never watched nor fingerprinted, at any depth: version control, dependency
 * and build output, caches, Cogito's trash. They are large, generated, and change in bursts
 * (an install, a build) that say nothing the agent needs to be woken for.
 */
const ALWAYS_IGNORED: ReadonlySet<string> = new Set([
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  'bower_components',
  '.pnpm-store',
  '.yarn',
  'dist',
  'build',
  'out',
  'target',
  '.next',
  '.nuxt',
  '.turbo',
  '.parcel-cache',
  '.cache',
  'coverage',
  '.venv',
  'venv',
  '__pycache__',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.tox',
  '.gradle',
  '.cogito-trash',
]);

/** Cogito's own ignore file in the workspace root (`.gitignore` syntax). */
const IGNORE_FILE = '.cogitoignore';

/** The workspace's ignore files, read at start and again whenever one of them changes. */
export const IGNORE_FILES: readonly string[] = ['.gitignore', IGNORE_FILE];

/** Patterns read per file at most: a generated ignore file cannot make every test slow. */
const MAX_PATTERNS = 2000;

/** Whether a workspace-relative posix path is left out; `dir` when it is a folder. */
export type IgnoreTest = (rel: string, dir: boolean) => boolean;

function readLines(file: string): string[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text.split(/\r?\n/).slice(0, MAX_PATTERNS);
}

/**
 * The test for paths the watcher and the fingerprint leave out: the always-ignored folder
 * names, the root `.gitignore` and `.cogitoignore` (full `.gitignore` syntax, negations
 * included, by the `ignore` library) and the `watch.ignore` setting. A missing or unreadable
 * file means no patterns from it.
 */
export function loadIgnore(root: string, extra: readonly string[] = []): IgnoreTest {
  // The package is CommonJS: its factory is the default export's `default` too.
  const rules = ignoreLib
    .default()
    .add([...IGNORE_FILES.flatMap((name) => readLines(path.join(root, name))), ...extra]);
  return (rel, dir) => {
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return false;
    if (rel.split('/').some((seg) => ALWAYS_IGNORED.has(seg))) return true;
    try {
      return rules.ignores(dir ? `${rel}/` : rel);
    } catch {
      // A path the library cannot judge (it refuses some odd names): watch it.
      return false;
    }
  };
}
