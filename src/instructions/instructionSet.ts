/**
 * The instruction files of one run: loaded at start (the user's own, then the git root down
 * to the workspace), held to a byte budget with the nearest files served first, and reloaded
 * when one changed, but only when the next turn asks for the prompt (never mid-turn, so a
 * turn's requests share one system prompt). A subfolder's file is loaded the first time a
 * tool touches that subfolder and goes out with that tool's result, so the system prompt
 * stays byte-identical and the provider's prompt cache keeps hitting.
 *
 * Instruction files are the user's words. A file Cogito itself wrote or changed this session
 * is the exception: it is not applied (the version seen before stays, or none) until the
 * user has seen it, by running /context, or until the next session.
 */
import fs from 'node:fs';
import { redactSecrets } from '../core/redact.js';
import path from 'node:path';
import { expandImports, type ImportScope, type ImportedFile } from './imports.js';
import { fileIn, fileStamp, folderStamp, shownPath, startFolders } from './discover.js';
import { nestedNote, promptSection } from './framing.js';
import type { InstructionFile, InstructionOrigin, InstructionReport } from './types.js';

export type { InstructionFile, InstructionOrigin, InstructionReport };

export interface InstructionDeps {
  /** The workspace: its root, and the resolver's checks imports go through. */
  workspace: ImportScope;
  /** The app home as an import scope (its settings and data fenced off); absent: no user file. */
  home?: ImportScope;
  /** File names per folder, in preference order. */
  names: readonly string[];
  /** The byte budget of the start files together, and again of the subfolders' files. */
  maxBytes: number;
  /**
   * Workspace-relative paths Cogito changed this session, each with the id of its latest
   * change (the session's change journal).
   */
  changedByCogito?(): ReadonlyMap<string, string>;
  /** API keys: removed from the files' text (a key pasted into a file goes no further). */
  secrets?: readonly (string | undefined)[];
}

export class InstructionSet {
  private files: InstructionFile[] = [];
  private stamp: string | undefined;
  private section = '';
  // Memory: the maps below hold one entry per instruction file or workspace folder a tool
  // touched, so they grow with the workspace's folders, never with the number of turns.
  /** The text applied last, per file, kept while a change of Cogito's waits to be seen. */
  private readonly applied = new Map<string, string>();
  /** Per path, the change the user has seen (by running /context). */
  private readonly seen = new Map<string, string>();
  /** Subfolders checked (workspace-relative), with the stamp of what they held then. */
  private readonly folders = new Map<string, string>();
  private readonly nested: InstructionFile[] = [];
  private nestedLeft: number;

  constructor(private readonly deps: InstructionDeps) {
    this.nestedLeft = deps.maxBytes;
  }

  /**
   * The system prompt's section (empty when there are no files). Asked once per turn: a file
   * changed since the last turn (or a new one) is read again now.
   */
  prompt(): string {
    const stamp = this.currentStamp();
    if (stamp !== this.stamp) {
      this.stamp = stamp;
      this.load();
      this.section = promptSection(this.files, this.deps.maxBytes);
    }
    return this.section;
  }

  /** The start files, then the subfolders' files loaded so far (for /context). */
  report(): InstructionReport {
    this.prompt();
    return {
      start: this.files,
      nested: this.nested,
      maxBytes: this.deps.maxBytes,
      names: this.deps.names,
      root: this.deps.workspace.root,
    };
  }

  /**
   * The user has seen the list (/context): Cogito's changes shown there as not applied are
   * applied from the next turn on.
   */
  markSeen(): void {
    const changed = this.deps.changedByCogito?.() ?? new Map<string, string>();
    for (const [rel, id] of changed) this.seen.set(rel, id);
    this.stamp = undefined;
  }

  /**
   * The instruction files of the subfolders `rels` (workspace-relative paths a tool touched)
   * not delivered yet, or changed since: the note to append to the tool's result, if any.
   */
  forPaths(rels: readonly string[]): string | undefined {
    const notes: string[] = [];
    for (const dir of subfolders(rels, (rel) => this.isDir(rel))) {
      const abs = path.join(this.deps.workspace.root, dir);
      const stamp = folderStamp(abs, this.deps.names);
      if (this.folders.get(dir) === stamp) continue;
      const again = this.folders.has(dir);
      this.folders.set(dir, stamp);
      const found = fileIn(abs, this.deps.names);
      if (found === undefined) continue;
      // A file brought again (changed) replaces its earlier entry, and its bytes return first.
      const earlier = this.nested.findIndex((f) => f.abs === found);
      if (earlier !== -1) this.nestedLeft += this.nested.splice(earlier, 1)[0]!.kept;
      const file = this.read(found, 'folder', this.nestedLeft);
      this.nestedLeft -= file.kept;
      this.nested.push(file);
      notes.push(nestedNote(file, again, this.deps.maxBytes));
    }
    return notes.length === 0 ? undefined : notes.join('\n\n');
  }

  private isDir(rel: string): boolean {
    try {
      return fs.statSync(path.join(this.deps.workspace.root, rel)).isDirectory();
    } catch {
      return false;
    }
  }

  /** What the files at start (and their imports) are now, and what is unseen. */
  private currentStamp(): string {
    const { names } = this.deps;
    const dirs = [
      ...(this.deps.home ? [this.deps.home.root] : []),
      ...startFolders(this.deps.workspace.root),
    ];
    const parts = dirs.map((d) => folderStamp(d, names));
    for (const f of this.files)
      for (const i of f.imported) parts.push(fileStamp(this.importAbs(f, i)));
    parts.push(JSON.stringify([...this.unseen()]));
    return parts.join('\n');
  }

  private importAbs(f: InstructionFile, i: ImportedFile): string {
    const root = f.origin === 'user' ? this.deps.home!.root : this.deps.workspace.root;
    return path.join(root, i.shown);
  }

  /** Paths Cogito changed whose latest change the user has not seen. */
  private unseen(): Set<string> {
    const out = new Set<string>();
    for (const [rel, id] of this.deps.changedByCogito?.() ?? [])
      if (this.seen.get(rel) !== id) out.add(rel);
    return out;
  }

  /** Reads the start files and shares the budget out, nearest first. */
  private load(): void {
    const found: { abs: string; origin: InstructionOrigin }[] = [];
    const home = this.deps.home ? fileIn(this.deps.home.root, this.deps.names) : undefined;
    if (home !== undefined) found.push({ abs: home, origin: 'user' });
    for (const dir of startFolders(this.deps.workspace.root)) {
      const abs = fileIn(dir, this.deps.names);
      if (abs !== undefined && !found.some((f) => f.abs === abs))
        found.push({ abs, origin: 'workspace' });
    }
    // Nearest first: the workspace's own file, then its parents', the user's own last.
    const byNearness = [...found].reverse();
    let left = this.deps.maxBytes;
    const loaded = new Map<string, InstructionFile>();
    for (const f of byNearness) {
      const file = this.read(f.abs, f.origin, left);
      left -= file.kept;
      loaded.set(f.abs, file);
    }
    this.files = found.map((f) => loaded.get(f.abs)!);
  }

  /** One file with its imports, cut to `budget` bytes; Cogito's unseen change held back. */
  private read(abs: string, origin: InstructionOrigin, budget: number): InstructionFile {
    const scope = origin === 'user' ? this.deps.home! : this.deps.workspace;
    const rel = this.deps.workspace.relativeOf(abs);
    const shown =
      origin === 'user' ? shownPath(abs) : (rel ?? path.relative(this.deps.workspace.root, abs));
    let raw: string;
    try {
      raw = fs.readFileSync(abs, 'utf8');
    } catch (e) {
      raw = '';
      const problem = `unreadable: ${(e as Error).message}`;
      return {
        abs,
        shown,
        origin,
        bytes: 0,
        kept: 0,
        imported: [],
        refused: [{ from: shown, target: shown, problem }],
        text: '',
      };
    }
    const expanded = expandImports(raw, shown, path.dirname(abs), scope, new Set([abs]));
    let full = redactSecrets(expanded.text.trim(), this.deps.secrets ?? []);
    const unseenChange = rel !== undefined && this.unseen().has(rel);
    if (unseenChange) full = this.applied.get(abs) ?? '';
    else this.applied.set(abs, full);
    const bytes = Buffer.byteLength(full);
    const text = cutToBytes(full, Math.max(0, budget));
    return {
      abs,
      shown,
      origin,
      bytes,
      kept: Buffer.byteLength(text),
      imported: expanded.imported,
      refused: expanded.refused,
      text,
      ...(unseenChange ? { unseenChange } : {}),
    };
  }
}

/** `text` cut to at most `max` bytes of UTF-8, at a line end when one is near. */
export function cutToBytes(text: string, max: number): string {
  if (Buffer.byteLength(text) <= max) return text;
  // Decoding a cut buffer may end in half a character: drop the replacement mark it leaves.
  const head = Buffer.from(text)
    .subarray(0, max)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  const line = head.lastIndexOf('\n');
  return line > head.length / 2 ? head.slice(0, line) : head;
}

/**
 * The subfolders (workspace-relative) the paths lie in or are, outermost first, the root
 * itself left out (its file loaded at start): `docs/a/x.md` gives `docs`, `docs/a`.
 */
export function subfolders(rels: readonly string[], isDir: (rel: string) => boolean): string[] {
  const out: string[] = [];
  for (const rel of rels) {
    if (rel === '.' || rel === '') continue;
    const parts = rel.split('/');
    const dirs = isDir(rel) ? parts.length : parts.length - 1;
    for (let i = 1; i <= dirs; i++) {
      const dir = parts.slice(0, i).join('/');
      if (!out.includes(dir)) out.push(dir);
    }
  }
  return out;
}
