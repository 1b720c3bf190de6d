/**
 * The paths an `@` mention can complete to: workspace files and folders matching what was
 * typed after the `@`, nearest and shortest first. The workspace is walked once, lazily, on
 * the first lookup (at most {@link PATH_INDEX_MAX_ENTRIES} entries, so a 100k-file folder costs
 * one bounded walk, never one per key), and walked again only when the index is older than
 * `maxAgeMs` or was invalidated (a change in the folder). The walk leaves out what the
 * watcher leaves out (version control, dependencies, build output, `.gitignore` and
 * `.cogitoignore`), never follows a symlink (a link is listed, not entered, so a loop cannot
 * hang it), never enters Cogito's own places, and every path offered is checked again by the
 * workspace resolver, the one the `read` tool uses, so a mention never names what a read
 * would refuse.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Workspace } from '../tools/workspace.js';
import { loadIgnore } from '../watch/ignore.js';

/** Most entries the index holds; a larger folder is completed from what was found first. */
export const PATH_INDEX_MAX_ENTRIES = 20_000;
/** Most candidates a lookup returns (the list under the input shows this many). */
export const MENTION_LIST_MAX = 8;
/** An index older than this is walked again at the next lookup (files come and go). */
export const PATH_INDEX_MAX_AGE_MS = 10_000;

export interface PathIndexDeps {
  workspace: Pick<Workspace, 'root' | 'resolve'>;
  /** `watch.ignore`: patterns left out besides the watcher's own rules and ignore files. */
  ignore?: readonly string[];
  /** Absolute paths never listed nor entered (Cogito's home and its state files). */
  hidden?: readonly string[];
  maxEntries?: number;
  maxAgeMs?: number;
  now?(): number;
}

export interface PathIndex {
  /**
   * Up to `limit` workspace-relative paths matching `query` (folders end in `/`), best first:
   * a prefix of the whole path, then of the name, then of any segment, then a substring, then
   * the letters in order; among equals the shallower, then the shorter, then by name.
   */
  candidates(query: string, limit?: number): Promise<string[]>;
  /** Forget the index (the folder changed): the next lookup walks again. */
  invalidate(): void;
  /** Entries held now, and whether the walk stopped at the cap (for tests and /trace). */
  stats(): { entries: number; capped: boolean };
}

interface Entry {
  /** Relative, forward slashes; a folder ends in `/`. */
  rel: string;
  lower: string;
  depth: number;
}

/** Builds the index for one workspace; nothing is read until the first lookup. */
export function createPathIndex(deps: PathIndexDeps): PathIndex {
  const root = deps.workspace.root;
  const maxEntries = deps.maxEntries ?? PATH_INDEX_MAX_ENTRIES;
  const maxAge = deps.maxAgeMs ?? PATH_INDEX_MAX_AGE_MS;
  const now = deps.now ?? Date.now;
  const hidden = (deps.hidden ?? []).map((p) => path.resolve(p));
  let built: { at: number; entries: Entry[]; capped: boolean } | undefined;
  let walking: Promise<{ at: number; entries: Entry[]; capped: boolean }> | undefined;

  const isHidden = (abs: string): boolean =>
    hidden.some((h) => abs === h || abs.startsWith(h + path.sep));

  async function walk(): Promise<{ at: number; entries: Entry[]; capped: boolean }> {
    // Read again with every walk: an edited `.gitignore` counts from the next one.
    const ignored = loadIgnore(root, deps.ignore ?? []);
    const entries: Entry[] = [];
    // Breadth first: when the cap is hit, the nearer paths are the ones kept.
    const queue: string[] = [''];
    let capped = false;
    while (queue.length > 0 && !capped) {
      const dir = queue.shift()!;
      const names = await fs.readdir(path.join(root, dir), { withFileTypes: true }).catch(() => []);
      names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const d of names) {
        const rel = dir === '' ? d.name : `${dir}/${d.name}`;
        // A symlink is never entered (it may point at its own parent); it is listed as a name.
        const isDir = d.isDirectory();
        if (ignored(rel, isDir) || isHidden(path.join(root, rel))) continue;
        if (entries.length >= maxEntries) {
          capped = true;
          break;
        }
        const shown = isDir ? `${rel}/` : rel;
        entries.push({ rel: shown, lower: shown.toLowerCase(), depth: rel.split('/').length });
        if (isDir) queue.push(rel);
      }
    }
    return { at: now(), entries, capped };
  }

  async function index(): Promise<Entry[]> {
    if (built && now() - built.at < maxAge) return built.entries;
    walking ??= walk().finally(() => (walking = undefined));
    built = await walking;
    return built.entries;
  }

  return {
    async candidates(query, limit = MENTION_LIST_MAX) {
      const entries = await index();
      const q = query.toLowerCase().replace(/^\.\//, '');
      const scored: { e: Entry; score: number }[] = [];
      for (const e of entries) {
        const score = matchScore(e.lower, q);
        if (score !== undefined) scored.push({ e, score });
      }
      scored.sort(
        (a, b) =>
          a.score - b.score ||
          a.e.depth - b.e.depth ||
          a.e.rel.length - b.e.rel.length ||
          (a.e.rel < b.e.rel ? -1 : 1),
      );
      // Only the ones shown are checked by the resolver (Cogito's fenced files, a name that
      // changed into a symlink out of the workspace since the walk).
      const out: string[] = [];
      for (const { e } of scored) {
        if (out.length >= limit) break;
        if ((await deps.workspace.resolve(e.rel.replace(/\/$/, ''))).ok) out.push(e.rel);
      }
      return out;
    },
    invalidate() {
      built = undefined;
    },
    stats() {
      return { entries: built?.entries.length ?? 0, capped: built?.capped ?? false };
    },
  };
}

/** How well `lowerPath` matches `q` (lower is better), or undefined for no match. */
export function matchScore(lowerPath: string, q: string): number | undefined {
  if (q === '') return 0;
  if (lowerPath.startsWith(q)) return 0;
  const bare = lowerPath.endsWith('/') ? lowerPath.slice(0, -1) : lowerPath;
  const name = bare.slice(bare.lastIndexOf('/') + 1);
  if (name.startsWith(q)) return 1;
  if (bare.split('/').some((seg) => seg.startsWith(q))) return 2;
  if (lowerPath.includes(q)) return 3;
  let at = 0;
  for (const ch of q) {
    at = lowerPath.indexOf(ch, at);
    if (at === -1) return undefined;
    at += 1;
  }
  return 4;
}

/**
 * The `@` mention being typed at the cursor: the `@` at the start or after white space, and
 * what follows it up to the cursor (no white space). Undefined when the cursor is not in one.
 */
export function mentionAt(
  value: string,
  cursor: number,
): { start: number; query: string } | undefined {
  const before = value.slice(0, cursor);
  const m = /(?:^|\s)@([^\s@]*)$/.exec(before);
  if (!m) return undefined;
  return { start: cursor - m[1]!.length - 1, query: m[1]! };
}
