/**
 * Which paths each file-writing tool touches, read from its arguments: the one table that
 * lets the journal wrap the tools without changing them. A tool not listed here is not
 * journaled (it changes nothing in the workspace).
 */
import type { ChangeOp } from './records.js';

/** One path argument of a call and whether its old content must be backed up. */
export interface PathArg {
  readonly arg: number;
  /** Old content is lost by the call (an overwrite), so it goes to the backup store. */
  readonly backup: boolean;
}

/** How a tool changes the workspace. */
export interface ToolPlan {
  readonly op: ChangeOp;
  /** Main paths in undo-check order. */
  readonly paths: readonly PathArg[];
  /**
   * The folder the call may create with its missing parents: `self` is the path argument
   * itself (mkdir), `parent` its parent folder (create, copy, move), `trash` the trash.
   */
  readonly makes?: { readonly arg: number; readonly what: 'self' | 'parent' } | 'trash';
  /** The argument named in the tool log's "undo: /undo <path>" line. */
  readonly undoArg: number;
}

export const TOOL_PLANS: Readonly<Record<string, ToolPlan>> = Object.freeze({
  create: {
    op: 'write',
    paths: [{ arg: 0, backup: true }],
    makes: { arg: 0, what: 'parent' },
    undoArg: 0,
  },
  edit: { op: 'write', paths: [{ arg: 0, backup: true }], undoArg: 0 },
  mkdir: { op: 'mkdir', paths: [], makes: { arg: 0, what: 'self' }, undoArg: 0 },
  copy: {
    op: 'copy',
    paths: [{ arg: 1, backup: false }],
    makes: { arg: 1, what: 'parent' },
    undoArg: 1,
  },
  // Destination first: undo empties it before the source is put back.
  move: {
    op: 'move',
    paths: [
      { arg: 1, backup: false },
      { arg: 0, backup: false },
    ],
    makes: { arg: 1, what: 'parent' },
    undoArg: 1,
  },
  delete: { op: 'delete', paths: [{ arg: 0, backup: false }], makes: 'trash', undoArg: 0 },
});
