/**
 * A journal line is data, not an order: `changes.jsonl` sits in a folder a user, a script or
 * another program can write, and undo and crash rollback act on what it says. So every line
 * is checked field by field before anything reads it as a change: workspace-relative paths
 * that stay inside (no `..`, no absolute or home forms, no backslashes), a known operation,
 * content hashes of the store's shape, numbers where numbers belong (undo itself restores
 * only the 0o777 bits, never setuid).
 * A line that fails is reported with the reason and skipped.
 */
import { checkPathShape } from '../tools/pathShape.js';
import { TRASH_DIR } from '../tools/files/common.js';
import type { ChangeOp, JournalRecord } from './records.js';

const OPS: readonly ChangeOp[] = ['write', 'mkdir', 'copy', 'move', 'delete'];
const HASH = /^[0-9a-f]{64}$/;
/** Ids and labels are short plain strings; a megabyte "turn" is not a record Cogito wrote. */
const MAX_LABEL = 200;
const MAX_CALL = 100_000;

/** Why `rel` is not a path the journal may act on, or undefined when it is one. */
export function badRelPath(rel: unknown): string | undefined {
  if (typeof rel !== 'string') return 'a path is not a string';
  if (rel === '' || rel === '.') return 'a path names the workspace root';
  if (rel.length > 4096) return 'a path is longer than 4096 characters';
  if (rel.startsWith('/')) return `the path ${JSON.stringify(rel)} is absolute`;
  if (rel.includes('\\')) return `the path ${JSON.stringify(rel)} holds a backslash`;
  const shape = checkPathShape(rel, true);
  if (shape !== undefined) return `the path ${JSON.stringify(rel)} is refused: ${shape}`;
  const parts = rel.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..')) {
    return `the path ${JSON.stringify(rel)} is not a plain relative path (empty, . or .. parts)`;
  }
  return undefined;
}

/** Why `v` is not a well-formed tree (see `FlatTree`), or undefined. */
function badTree(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'a tree is not an object';
  for (const [sub, node] of Object.entries(v as Record<string, unknown>)) {
    if (sub !== '') {
      const bad = badRelPath(sub);
      if (bad !== undefined) return bad;
    }
    const n = node as { k?: unknown; h?: unknown; m?: unknown; s?: unknown; t?: unknown };
    if (typeof n !== 'object' || n === null) return 'a tree entry is not an object';
    const modeOk = Number.isInteger(n.m) && (n.m as number) >= 0 && (n.m as number) <= 0o7777;
    if (n.k === 'f') {
      if (typeof n.h !== 'string' || !HASH.test(n.h)) return 'a file entry has no valid hash';
      if (!modeOk) return `a file entry has mode ${String(n.m)}, not a mode`;
      if (!Number.isSafeInteger(n.s) || (n.s as number) < 0) return 'a file entry has a bad size';
    } else if (n.k === 'd') {
      if (!modeOk) return `a folder entry has mode ${String(n.m)}, not a mode`;
    } else if (n.k === 'l') {
      if (typeof n.t !== 'string') return 'a symlink entry has no target';
    } else {
      return `a tree entry has the unknown kind ${JSON.stringify(n.k)}`;
    }
  }
  return undefined;
}

function badLabel(v: unknown, what: string, max = MAX_LABEL): string | undefined {
  return typeof v === 'string' && v.length <= max ? undefined : `${what} is not a short string`;
}

function badPathList(v: unknown): string | undefined {
  if (!Array.isArray(v)) return 'a path list is not a list';
  for (const p of v) {
    const bad = badRelPath(p);
    if (bad !== undefined) return bad;
  }
  return undefined;
}

function badBegin(e: Record<string, unknown>): string | undefined {
  const labels = ['id', 'turn', 'trigger', 'tool'] as const;
  for (const k of labels) {
    const bad = badLabel(e[k], k);
    if (bad !== undefined) return bad;
  }
  if (!OPS.includes(e.op as ChangeOp)) return `the operation ${JSON.stringify(e.op)} is unknown`;
  if (!Number.isFinite(e.at)) return 'at is not a time';
  if (e.callIndex !== undefined && !Number.isSafeInteger(e.callIndex)) return 'bad callIndex';
  const call = badLabel(e.call, 'call', MAX_CALL);
  if (call !== undefined) return call;
  if (!Array.isArray(e.paths) || e.paths.length > 2) return 'paths is not a list of at most two';
  for (const p of e.paths as Record<string, unknown>[]) {
    if (typeof p !== 'object' || p === null) return 'a path entry is not an object';
    const bad = badRelPath(p.path) ?? badTree(p.before);
    if (bad !== undefined) return bad;
    if (typeof p.backup !== 'boolean') return 'a path entry has no backup flag';
  }
  if (e.from !== undefined && badRelPath(e.from) !== undefined) return badRelPath(e.from);
  return badPathList(e.made);
}

function badDone(r: Record<string, unknown>): string | undefined {
  const id = badLabel(r.id, 'id');
  if (id !== undefined) return id;
  const after = r.after;
  if (typeof after !== 'object' || after === null) return 'after is not an object';
  for (const [p, tree] of Object.entries(after)) {
    const bad = badRelPath(p) ?? badTree(tree);
    if (bad !== undefined) return bad;
  }
  if (r.trash !== undefined) {
    const bad = badRelPath(r.trash);
    if (bad !== undefined) return bad;
    const parts = (r.trash as string).split('/');
    if (parts.length !== 2 || parts[0] !== TRASH_DIR) {
      return `the trash place ${JSON.stringify(r.trash)} is not directly inside ${TRASH_DIR}/`;
    }
  }
  return badPathList(r.made);
}

/**
 * Checks a parsed line. Returns the record, or the reason it is refused (then the caller
 * reports it and skips it).
 */
export function checkRecord(v: unknown): { record: JournalRecord } | { problem: string } {
  if (typeof v !== 'object' || v === null) return { problem: 'the line is not an object' };
  const r = v as Record<string, unknown>;
  let problem: string | undefined;
  switch (r.t) {
    case 'begin':
      problem =
        typeof r.e === 'object' && r.e !== null
          ? badBegin(r.e as Record<string, unknown>)
          : 'a begin line has no change';
      break;
    case 'done':
      problem = badDone(r);
      break;
    case 'none':
      problem =
        badLabel(r.id, 'id') ??
        (r.note === 'no_change' || r.note === 'rolled_back' ? undefined : 'bad note');
      break;
    case 'undone':
      problem =
        Array.isArray(r.ids) && r.ids.every((id) => badLabel(id, 'id') === undefined)
          ? undefined
          : 'ids is not a list of ids';
      break;
    case 'evicted':
      problem =
        Array.isArray(r.hashes) && r.hashes.every((h) => typeof h === 'string' && HASH.test(h))
          ? undefined
          : 'hashes is not a list of content hashes';
      break;
    default:
      problem = `the record type ${JSON.stringify(r.t)} is unknown`;
  }
  return problem === undefined ? { record: v as JournalRecord } : { problem };
}
