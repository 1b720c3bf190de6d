/**
 * `archive.zip::inner/file.pdf`: a member of an archive, read without unpacking it. The
 * archive itself goes through the workspace resolver like any path (no `..`, no symlink out);
 * the member name is never a path on disk: it is looked up inside the archive's bytes, in the
 * extraction process, so `::../../etc/passwd` can only name a member. Archives inside
 * archives are followed (`a.zip::b.zip::c.pdf`) up to the nesting limit.
 */
import type { ToolContext, ToolResult } from '../types.js';
import { fail } from '../types.js';
import type { ResolvedDeps } from './deps.js';
import { fsFailure, q, resolvePath } from './common.js';
import { detectKind } from '../../documents/detect.js';
import { DEFAULT_LIMITS, DocumentError, type DocumentKind } from '../../documents/types.js';
import { documentFailure, READ_MAX_DOCUMENT_BYTES } from './documentView.js';

/** The archive path and the member names after it, or undefined when `input` has no `::`. */
export function splitMemberPath(input: string): { archive: string; members: string[] } | undefined {
  const parts = input.split('::');
  if (parts.length < 2) return undefined;
  const [archive = '', ...members] = parts;
  return { archive, members };
}

export function isArchive(kind: DocumentKind): boolean {
  return kind === 'zip' || kind === 'tar' || kind === 'gzip';
}

/** A member of an archive in the workspace, as read needs it. */
export interface MemberFile {
  name: string;
  bytes: Uint8Array;
  stamp: { abs: string; size: number; mtimeMs: number };
  member: string;
}

/** Takes a member's bytes out of an archive in the workspace (archives inside it followed). */
export async function memberFile(
  deps: ResolvedDeps,
  ctx: ToolContext,
  path: { archive: string; members: string[] },
): Promise<{ ok: true; file: MemberFile } | { ok: false; result: ToolResult }> {
  const no = (result: ToolResult): { ok: false; result: ToolResult } => ({ ok: false, result });
  const whole = `${path.archive}::${path.members.join('::')}`;
  if (path.archive === '' || path.members.some((m) => m.trim() === '')) {
    return no(
      fail(
        'invalid_args',
        `${q(whole)} does not name an archive member: write it as "archive.zip::folder/file.pdf".`,
      ),
    );
  }
  if (path.members.length > DEFAULT_LIMITS.maxDepth) {
    return no(
      fail(
        'invalid_args',
        `${q(whole)} nests ${path.members.length} archives deep; Cogito follows at most ${DEFAULT_LIMITS.maxDepth}.`,
      ),
    );
  }
  const r = await resolvePath(ctx, path.archive, { mustExist: true });
  if (!r.ok) return no(r.result);
  const { abs, rel } = r.path;
  try {
    const st = await deps.fs.stat(abs);
    if (!st.isFile()) {
      return no(fail('invalid_args', `${q(rel)} is not a file, so it has no members.`));
    }
    let bytes: Uint8Array = await deps.readWhole(abs, ctx.workspace, {
      signal: ctx.signal,
      maxBytes: READ_MAX_DOCUMENT_BYTES,
    });
    let name = rel;
    for (const member of path.members) {
      const kind = detectKind(bytes, name).kind;
      if (kind === undefined || !isArchive(kind)) {
        return no(
          fail(
            'invalid_args',
            `${q(name)} is not an archive (ZIP, tar or gzip), so ${q(`${name}::${member}`)} names nothing. Use read(${q(name)}).`,
          ),
        );
      }
      if (!deps.documents.reads(kind)) {
        return no(fail('unsupported', `Opening ${kind} archives is not available in this build.`));
      }
      bytes = await deps.documents.member({ bytes, name, kind }, member, ctx.signal);
      name = `${name}::${member}`;
    }
    const stamp = { abs, size: st.size, mtimeMs: st.mtimeMs };
    return { ok: true, file: { name, bytes, stamp, member: path.members.join('::') } };
  } catch (e) {
    if (e instanceof DocumentError) return no(documentFailure(e));
    return no(fsFailure(e, rel, 'read'));
  }
}
