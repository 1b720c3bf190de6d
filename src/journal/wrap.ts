/**
 * The journal's one hook into the tools: `withJournal(tool, …)` wraps a file-writing tool
 * so every call is journaled before it runs (old content backed up) and closed after it
 * (what the paths hold now). Tools themselves are unchanged.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { changeHeader } from './changeHeader.js';
import { TRASH_DIR } from '../tools/files/common.js';
import type { ApprovalNeed, Tool, ToolArg, ToolContext, ToolResult } from '../tools/types.js';
import type { Journal } from './journal.js';
import { TOOL_PLANS, type ToolPlan } from './plan.js';
import type { PathBefore } from './records.js';
import { readTree, sameTree, type FlatTree } from './snapshot.js';
import { backUpForWrite, backupNeed } from './backup.js';
import { journalRel } from './journalPath.js';

/** A path argument resolved inside the workspace. */
interface Resolved {
  abs: string;
  rel: string;
}

/** Gives the journal of the current session (it changes with /new). */
export type JournalRef = () => Journal | undefined;

/** Wraps every tool that has a plan in {@link TOOL_PLANS}; others are returned as they are. */
export function withJournal(tools: readonly Tool[], journal: JournalRef): Tool[] {
  return tools.map((tool) => {
    const plan = TOOL_PLANS[tool.name];
    return plan ? journaled(tool, plan, journal) : tool;
  });
}

function journaled(tool: Tool, plan: ToolPlan, journalRef: JournalRef): Tool {
  // Every field the tool sets (its trust, where its data goes, its own argument check and
  // policy) stays as it is: the journal only wraps the two calls it must see.
  return {
    ...tool,
    async needsApproval(args, ctx) {
      const target = plan.op === 'write' ? await resolveArg(args, 0, ctx, true) : undefined;
      // A folder target is refused by run before anything is read: nothing to show or ask.
      if (target && (await isFolder(target.abs))) return undefined;
      const inner = await tool.needsApproval?.(args, ctx);
      const journal = journalRef();
      const big = target && journal ? await backupNeed(target, args, journal, ctx.lang) : undefined;
      return withReason(inner, big);
    },
    async run(args, ctx) {
      const journal = journalRef();
      if (!journal) return tool.run(args, ctx);
      const targets = await resolveAll(plan, args, ctx);
      if (!targets) return tool.run(args, ctx); // the tool reports the bad path itself
      return runJournaled(tool, plan, args, ctx, journal, targets);
    },
  };
}

interface Targets {
  main: Resolved[];
  /** Folders that do not exist yet and the call may create, deepest first. */
  made: Resolved[];
  trash?: Resolved;
  /** The path named in "undo: /undo <path>". */
  undo: string;
  /** A copy's source. */
  from?: string;
}

async function runJournaled(
  tool: Tool,
  plan: ToolPlan,
  args: readonly ToolArg[],
  ctx: ToolContext,
  journal: Journal,
  targets: Targets,
): Promise<ToolResult> {
  const now = Date.now();
  const id = journal.nextId(now);
  const keep = new Set<string>();
  const paths: PathBefore[] = [];
  let notice: string | undefined;
  for (const target of targets.main) {
    if (plan.op !== 'write') {
      // Nothing of a move, copy or delete is lost, so nothing is stored: the tree is read
      // only to check, at undo, that it is still what the change left.
      paths.push({ path: target.rel, before: await readTree(target.abs), backup: false });
      continue;
    }
    const backup = await backUpForWrite(tool.name, target, args, journal, keep);
    if ('refuse' in backup) return backup.refuse;
    paths.push(backup.before);
    notice = backup.notice;
  }
  const trashBefore = targets.trash ? await listNames(targets.trash.abs) : undefined;
  journal.begin({
    ...changeHeader(ctx, id, now, tool.name, args),
    op: plan.op,
    paths,
    made: targets.made.map((m) => m.rel),
    ...(targets.from !== undefined ? { from: targets.from } : {}),
  });
  try {
    const result = await tool.run(args, ctx);
    await close(journal, id, targets, paths, trashBefore);
    if (!result.ok) return result;
    return { ...withNotice(result, notice), undo: `/undo ${quoteIfNeeded(targets.undo)}` };
  } catch (e) {
    await close(journal, id, targets, paths, trashBefore);
    throw e;
  }
}

/** Writes `done` (what changed) or `none` (nothing did) for the change `id`. */
async function close(
  journal: Journal,
  id: string,
  targets: Targets,
  paths: readonly PathBefore[],
  trashBefore: ReadonlySet<string> | undefined,
): Promise<void> {
  const after: Record<string, FlatTree> = {};
  let changed = false;
  for (const [i, p] of paths.entries()) {
    after[p.path] = await readTree(targets.main[i]!.abs);
    if (!sameTree(p.before, after[p.path]!)) changed = true;
  }
  const made: string[] = [];
  for (const m of targets.made) if (await exists(m.abs)) made.push(m.rel);
  let trash: string | undefined;
  if (targets.trash && trashBefore) {
    const added = [...(await listNames(targets.trash.abs))].filter((n) => !trashBefore.has(n));
    if (added.length === 1) {
      trash = `${targets.trash.rel}/${added[0]!}`;
      after[trash] = await readTree(path.join(targets.trash.abs, added[0]!));
    }
  }
  if (!changed && made.length === 0 && trash === undefined) journal.none(id, 'no_change');
  else journal.done(id, after, made, trash);
}

/** Resolves the plan's paths; undefined when one is invalid (the tool then says why). */
async function resolveAll(
  plan: ToolPlan,
  args: readonly ToolArg[],
  ctx: ToolContext,
): Promise<Targets | undefined> {
  // The undo hint and the folders made name the same arguments again: resolve each once.
  const memo = new Map<string, Promise<Resolved | undefined>>();
  const arg = (i: number, follow: boolean): Promise<Resolved | undefined> => {
    const key = `${i}:${follow}`;
    const known = memo.get(key) ?? resolveArg(args, i, ctx, follow);
    memo.set(key, known);
    return known;
  };
  const main: Resolved[] = [];
  for (const spec of plan.paths) {
    const r = await arg(spec.arg, plan.op === 'write');
    if (!r) return undefined;
    main.push(r);
  }
  const undoTarget = await arg(plan.undoArg, plan.op === 'write');
  if (!undoTarget) return undefined;
  let made: Resolved[] = [];
  let trash: Resolved | undefined;
  if (plan.makes === 'trash') {
    const t = await ctx.workspace.resolve(TRASH_DIR);
    if (!t.ok) return undefined;
    trash = t.path;
    made = await missingFolders(trash, ctx);
  } else if (plan.makes) {
    const r = await arg(plan.makes.arg, false);
    if (!r || r.rel === '.') return undefined;
    const start = plan.makes.what === 'self' ? r : await resolveParent(r, ctx);
    if (start === 'invalid') return undefined;
    if (start) made = await missingFolders(start, ctx);
  }
  const from =
    plan.op === 'copy' ? (await resolveArg(args, 0, ctx, false, 'read'))?.rel : undefined;
  return {
    main,
    made,
    undo: undoTarget.rel,
    ...(trash ? { trash } : {}),
    ...(from !== undefined ? { from } : {}),
  };
}

/**
 * Resolves a path argument for write, as the tool will, and gives it in the journal's form:
 * where the change really lands (see `journalPath.ts`). Undefined when the resolver refuses
 * it (the tool then refuses it too, before anything is read).
 */
async function resolveArg(
  args: readonly ToolArg[],
  i: number,
  ctx: ToolContext,
  followFinal = false,
  access: 'read' | 'write' = 'write',
): Promise<Resolved | undefined> {
  const v = args[i];
  if (typeof v !== 'string') return undefined;
  const r = await ctx.workspace.resolve(v, { access });
  if (!r.ok) return undefined;
  const rel = await journalRel(ctx.workspace, r.path.abs, followFinal);
  if (rel === undefined || rel === '.') return undefined;
  return { abs: path.join(ctx.workspace.root, ...rel.split('/')), rel };
}

/** The parent folder; undefined for the workspace root (never made), 'invalid' if refused. */
async function resolveParent(
  r: Resolved,
  ctx: ToolContext,
): Promise<Resolved | undefined | 'invalid'> {
  const parent = path.posix.dirname(r.rel);
  if (parent === '.' || parent === '') return undefined;
  const p = await ctx.workspace.resolve(parent);
  return p.ok ? p.path : 'invalid';
}

/** `start` and its ancestors that do not exist yet, deepest first, the root excluded. */
async function missingFolders(start: Resolved, ctx: ToolContext): Promise<Resolved[]> {
  const out: Resolved[] = [];
  let rel = start.rel;
  while (rel !== '.' && rel !== '') {
    const abs = path.join(ctx.workspace.root, ...rel.split('/'));
    if (await exists(abs)) break;
    out.push({ abs, rel });
    rel = path.posix.dirname(rel);
  }
  return out;
}

async function isFolder(abs: string): Promise<boolean> {
  return (await fsp.lstat(abs).catch(() => undefined))?.isDirectory() === true;
}

/** Adds what the user must know (older backups removed) to a successful result. */
function withNotice(
  result: ToolResult & { ok: true },
  notice: string | undefined,
): ToolResult & { ok: true } {
  if (notice === undefined) return result;
  const data = typeof result.data === 'string' ? `${result.data}\n${notice}` : result.data;
  const display = `${result.display ?? ''} (${notice})`.trim();
  return { ...result, data, display };
}

async function exists(abs: string): Promise<boolean> {
  return fsp.lstat(abs).then(
    () => true,
    () => false,
  );
}

async function listNames(abs: string): Promise<Set<string>> {
  return new Set(await fsp.readdir(abs).catch(() => []));
}

/** Paths with spaces are quoted so the hint can be typed back as it is shown. */
function quoteIfNeeded(rel: string): string {
  return /\s/.test(rel) ? JSON.stringify(rel) : rel;
}

/** The tool's own approval need with the journal's reason added (its detail kept). */
function withReason(
  inner: string | ApprovalNeed | undefined,
  extra: string | undefined,
): string | ApprovalNeed | undefined {
  if (extra === undefined) return inner;
  if (inner === undefined) return extra;
  if (typeof inner === 'string') return `${inner} ${extra}`;
  return { ...inner, reason: inner.reason ? `${inner.reason} ${extra}` : extra };
}
