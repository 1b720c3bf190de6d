/**
 * What the write tools check before a write that could plant something another program
 * runs by itself: a place of level `approve` (a shell start-up file, an autostart entry, a
 * `.desktop` file…), or a file that is executable after the write (an edit keeps the bit, a
 * copy or move carries it). Those calls ask every time, with the exact content on the card.
 * Folders are scanned (without following symlinks) so a copy cannot carry a `.git` or a
 * `.bashrc` in; the scan is bounded, and a tree too big to check asks instead.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { ApprovalNeed, ToolArg, ToolContext, ToolResult } from '../types.js';
import { fail } from '../types.js';
import { q, strArg } from './common.js';
import { say, t, type Lang } from '../../i18n/messages.js';

/** Most entries looked at in one folder tree before the tool asks instead. */
const SCAN_LIMIT = 5_000;
/** Most characters of content shown on the approval card. */
const DETAIL_MAX_CHARS = 4_000;
/** Most names listed in a reason. */
const NAMES_SHOWN = 3;

/** What a folder tree would bring to its destination. */
interface TreeScan {
  /** A place no tool may write that the tree would land in, if any. */
  never?: string;
  /** Destinations that need approval (protected places), as workspace paths. */
  approve: string[];
  /** Files that are executable and stay so at the destination. */
  executable: string[];
  /** True when the tree was bigger than {@link SCAN_LIMIT}. */
  incomplete: boolean;
}

const isExecutable = (mode: number): boolean => (mode & 0o111) !== 0;

/**
 * Scans `srcAbs` as if it were placed at `destRel` (workspace-relative): every entry's
 * destination is judged by the protected-places policy, and executables are listed.
 */
async function scanTree(ctx: ToolContext, srcAbs: string, destRel: string): Promise<TreeScan> {
  const scan: TreeScan = { approve: [], executable: [], incomplete: false };
  const queue: { abs: string; rel: string }[] = [{ abs: srcAbs, rel: destRel }];
  let seen = 0;
  while (queue.length > 0) {
    const item = queue.shift()!;
    if (++seen > SCAN_LIMIT) {
      scan.incomplete = true;
      break;
    }
    const verdict = ctx.workspace.protectionFor(item.rel, path.join(ctx.workspace.root, item.rel));
    if (verdict?.level === 'never')
      return { ...scan, never: `${q(item.rel)} would be ${verdict.what}` };
    if (verdict?.level === 'approve') {
      const what = say(ctx.lang ?? 'en', verdict.phrase);
      scan.approve.push(t(ctx.lang ?? 'en', 'reason.placeNamed', { path: q(item.rel), what }));
    }
    const st = await fsp.lstat(item.abs).catch(() => undefined);
    if (st?.isFile() === true && isExecutable(st.mode)) scan.executable.push(q(item.rel));
    if (st?.isDirectory() !== true) continue;
    const names = await fsp.readdir(item.abs).catch(() => [] as string[]);
    for (const name of names) {
      queue.push({ abs: path.join(item.abs, name), rel: path.posix.join(item.rel, name) });
    }
  }
  return scan;
}

/**
 * The refusal for copy, move or delete when the tree at `srcAbs`, placed at `destRel`,
 * holds a place no tool may write (a nested `.git`, Cogito's own files).
 */
export async function refuseProtectedWithin(
  ctx: ToolContext,
  tool: string,
  srcAbs: string,
  destRel: string,
): Promise<ToolResult | undefined> {
  const st = await fsp.lstat(srcAbs).catch(() => undefined);
  if (st?.isDirectory() !== true) return undefined;
  const scan = await scanTree(ctx, srcAbs, destRel);
  if (scan.never === undefined) return undefined;
  return fail(
    'denied',
    `${tool} cannot do this: ${scan.never}, which Cogito's tools never change, even with approval. Work on the files beside it instead.`,
  );
}

/** The approval create and edit need for `path` (argument 0), showing `content`. */
export async function writeNeed(
  ctx: ToolContext,
  args: readonly ToolArg[],
  content: string,
): Promise<ApprovalNeed | undefined> {
  const r = await ctx.workspace.resolve(strArg(args, 0), { access: 'write' });
  if (!r.ok) return undefined; // run() reports the problem
  const lang = ctx.lang ?? 'en';
  const reasons: string[] = [];
  const place = r.path.protection;
  if (place) {
    const what = say(lang, place.phrase);
    reasons.push(t(lang, 'reason.protectedPlace', { path: q(r.path.rel), what }));
  }
  const st = await fsp.stat(r.path.abs).catch(() => undefined);
  if (st?.isFile() === true && isExecutable(st.mode)) {
    reasons.push(t(lang, 'reason.executableStays', { path: q(r.path.rel) }));
  }
  return needFrom(reasons, content, lang);
}

/** The approval copy and move need: protected destinations and executables carried along. */
export async function transferNeed(
  ctx: ToolContext,
  args: readonly ToolArg[],
): Promise<ApprovalNeed | undefined> {
  const src = await ctx.workspace.resolve(strArg(args, 0), { mustExist: true });
  const dst = await ctx.workspace.resolve(strArg(args, 1), { access: 'write' });
  if (!src.ok || !dst.ok) return undefined; // run() reports the problem
  const scan = await scanTree(ctx, src.path.abs, dst.path.rel);
  const lang = ctx.lang ?? 'en';
  const reasons: string[] = [];
  if (scan.approve.length > 0) {
    reasons.push(t(lang, 'reason.transferWrites', { names: listed(scan.approve, lang) }));
  }
  if (scan.executable.length > 0) {
    reasons.push(t(lang, 'reason.transferExecutable', { names: listed(scan.executable, lang) }));
  }
  if (scan.incomplete) reasons.push(t(lang, 'reason.transferTooMany', { limit: SCAN_LIMIT }));
  if (reasons.length === 0) return undefined;
  return needFrom(reasons, await contentOf(src.path.abs, src.path.rel), lang);
}

function needFrom(
  reasons: readonly string[],
  content: string,
  lang: Lang,
): ApprovalNeed | undefined {
  if (reasons.length === 0) return undefined;
  return {
    reason: t(lang, 'reason.runsByItself', { reasons: reasons.join(lang === 'zh' ? '；' : '; ') }),
    detail:
      content.length > DETAIL_MAX_CHARS
        ? `${content.slice(0, DETAIL_MAX_CHARS)}\n[… ${content.length - DETAIL_MAX_CHARS} more characters]`
        : content,
    everyTime: true,
  };
}

function listed(names: readonly string[], lang: Lang): string {
  const shown = names.slice(0, NAMES_SHOWN).join(', ');
  const more = names.length - NAMES_SHOWN;
  return more > 0 ? t(lang, 'reason.andMore', { names: shown, more }) : shown;
}

/** What the card shows for a copied or moved source: a small text file's content, else its kind. */
async function contentOf(abs: string, rel: string): Promise<string> {
  const st = await fsp.lstat(abs).catch(() => undefined);
  if (st?.isFile() !== true) return `the folder ${q(rel)} and everything in it`;
  const buf = await fsp.readFile(abs).catch(() => Buffer.alloc(0));
  const head = buf.subarray(0, DETAIL_MAX_CHARS * 2);
  return head.includes(0) ? `${q(rel)}: a binary file of ${st.size} bytes` : head.toString('utf8');
}
