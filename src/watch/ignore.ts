import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Folder names never watched: version control, dependencies, Cogito's trash. */
export const ALWAYS_IGNORED: ReadonlySet<string> = new Set([
  '.git',
  'node_modules',
  '.cogito-trash',
]);

/** The ignore file in the workspace root, one pattern a line, `#` for comments. */
export const IGNORE_FILE = '.cogitoignore';

/**
 * A `.gitignore`-style pattern as a test on a workspace-relative posix path: `*` stays in a
 * segment, `**` crosses them, a trailing `/` means the folder and all under it, a pattern
 * without `/` matches a name at any depth.
 */
export function patternMatcher(pattern: string): (rel: string) => boolean {
  let p = pattern.trim();
  const dirOnly = p.endsWith('/');
  if (dirOnly) p = p.slice(0, -1);
  const anchored = p.includes('/');
  if (p.startsWith('/')) p = p.slice(1);
  const body = p
    .split(/(\*\*\/?|\*|\?)/)
    .map((part) =>
      part === '**/'
        ? '(?:.*/)?'
        : part === '**'
          ? '.*'
          : part === '*'
            ? '[^/]*'
            : part === '?'
              ? '[^/]'
              : part.replace(/[.+^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  const re = new RegExp(`${anchored ? '^' : '(?:^|/)'}${body}(?:/.*)?$`);
  return (rel) => re.test(rel);
}

/**
 * The test for paths the watcher and the fingerprint leave out: the always-ignored folders
 * and whatever `.cogitoignore` lists. A missing or unreadable file means no extra patterns.
 */
export function loadIgnore(root: string): (rel: string) => boolean {
  let text = '';
  try {
    text = readFileSync(path.join(root, IGNORE_FILE), 'utf8');
  } catch {
    text = '';
  }
  const matchers = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .slice(0, 500)
    .map(patternMatcher);
  return (rel) =>
    rel.split('/').some((seg) => ALWAYS_IGNORED.has(seg)) || matchers.some((m) => m(rel));
}
