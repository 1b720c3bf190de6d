/**
 * The lines of a session's change journal (`changes.jsonl`). A change is written as `begin`
 * (with what its paths held before, backups already stored) before the tool touches
 * anything, and closed by `done` (what the paths hold after) or `none` (nothing changed,
 * or a crash-interrupted change was rolled back). Undo and the size cap append their own
 * lines; nothing is ever rewritten. Reading a line back is journalLine.ts.
 */
import type { FlatTree } from './snapshot.js';

/** What kind of change a tool call makes; decides how undo reverts it. */
export type ChangeOp = 'write' | 'mkdir' | 'copy' | 'move' | 'delete';

/** A path a change touches and what it held before. */
export interface PathBefore {
  /** Workspace-relative, POSIX separators. */
  readonly path: string;
  readonly before: FlatTree;
  /** True when the files in `before` were copied to the backup store. */
  readonly backup: boolean;
}

/** What is known when a change starts. */
export interface ChangeStart {
  readonly id: string;
  readonly at: number;
  /**
   * The turn the call came from (the id of its first reply with calls): changes are grouped
   * by it ("turns" in /changes, what `/undo` takes back at once).
   */
  readonly turn: string;
  /** The reply holding the call, when it is not the turn's first (a later step of its chain). */
  readonly reply?: string;
  /** What started the turn: `timer` is autonomous, `user` an answer. */
  readonly trigger: string;
  /** The call's position in its reply, to match its result in the history. */
  readonly callIndex?: number;
  readonly tool: string;
  readonly op: ChangeOp;
  /** The call as text, e.g. `edit("a.txt", …)`. */
  readonly call: string;
  /** Main paths, in the order undo checks them (for a move: destination, then source). */
  readonly paths: readonly PathBefore[];
  /** Folders the call may create (missing parents), deepest first. */
  readonly made: readonly string[];
  /** A copy's source, for /changes. */
  readonly from?: string;
}

export type JournalRecord =
  | { readonly t: 'begin'; readonly e: ChangeStart }
  | {
      readonly t: 'done';
      readonly id: string;
      /** Each main path's tree after the change, by path. */
      readonly after: Readonly<Record<string, FlatTree>>;
      /** The folders the call really created, deepest first. */
      readonly made: readonly string[];
      /** Where `delete` put the thing (inside the trash folder). */
      readonly trash?: string;
    }
  | { readonly t: 'none'; readonly id: string; readonly note: 'no_change' | 'rolled_back' }
  | { readonly t: 'undone'; readonly ids: readonly string[] }
  | { readonly t: 'evicted'; readonly hashes: readonly string[] };
