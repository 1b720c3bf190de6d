/**
 * `read(path, offset?, limit?)`: a text file or a range of its lines, or a document (PDF,
 * Office, e-mail, e-book, HTML…) or a range of its units (pages, slides, sheets…). Text in
 * any common encoding is decoded; documents are read in the extraction process, through the
 * cache; a member of an archive is read as `archive.zip::inner/file.pdf`. Output is capped
 * and always says how to get the rest, because a model that cannot see the end of a file
 * should know it exists. A document's text is content from outside: it reaches the model
 * wrapped as data, like a web page (a PDF can carry instructions).
 */
import type { Tool, ToolArg, ToolContext, ToolResult } from '../types.js';
import { fail, ok } from '../types.js';
import type { FileToolDeps, ResolvedDeps } from './deps.js';
import { resolveDeps } from './deps.js';
import { formatSize, fsFailure, numArg, q, resolvePath, strArg } from './common.js';
import { encodingLabel, type DecodedText } from '../../documents/encoding.js';
import { detectKind, KIND_LABELS, kindFromName } from '../../documents/detect.js';
import { DocumentError, type DocumentKind } from '../../documents/types.js';
import { counted } from '../../core/plural.js';
import { documentFailure, READ_MAX_DOCUMENT_BYTES, renderDocument } from './documentView.js';
import { isArchive, memberFile, splitMemberPath } from './archivePath.js';

/** Most lines returned by one call. */
const READ_MAX_LINES = 2000;
/** Most bytes of text returned by one call. */
export const READ_MAX_BYTES = 256 * 1024;
/** Text files above this are refused outright: decoding them would cost too much memory. */
export const READ_MAX_FILE_BYTES = 20 * 1024 * 1024;

/** Creates the `read` tool. */
export function createReadTool(deps?: FileToolDeps): Tool {
  const resolved = resolveDeps(deps);
  const { fs, readWhole } = resolved;
  return {
    name: 'read',
    description: `Read a text file (any common encoding) or a document: PDF, Word, PowerPoint, Excel, OpenDocument, RTF, CSV, e-mail (.eml/.msg), EPUB, notebook, feed, HTML, image (text by OCR, metadata), audio/video (tags), archive (member list). For text, offset is the first line (1-based) and limit the number of lines; for a document they count its pages, slides, sheets or chapters. A member of an archive: read("archive.zip::folder/file.pdf"). At most ${READ_MAX_LINES} lines or ${READ_MAX_BYTES / 1024} KB per call.`,
    kind: 'read',
    params: [
      { name: 'path', type: 'string', description: 'file to read' },
      {
        name: 'offset',
        type: 'number',
        optional: true,
        description: 'first line (text) or page/slide/sheet (document), 1-based',
      },
      {
        name: 'limit',
        type: 'number',
        optional: true,
        description: 'how many lines, or pages/slides/sheets',
      },
    ],
    async run(args: readonly ToolArg[], ctx: ToolContext): Promise<ToolResult> {
      const offset = numArg(args, 1);
      const limit = numArg(args, 2);
      const badRange = checkRange(offset, limit);
      if (badRange !== undefined) return badRange;
      const input = strArg(args, 0);
      const r = await resolvePath(ctx, input, { mustExist: true });
      // A real file whose name holds `::` wins; otherwise `::` names an archive member.
      const member = r.ok ? undefined : splitMemberPath(input);
      if (member !== undefined) {
        const found = await memberFile(resolved, ctx, member);
        if (!found.ok) return found.result;
        try {
          return await readBytes(resolved, ctx, found.file, { offset, limit });
        } catch (e) {
          if (e instanceof DocumentError) return documentFailure(e);
          throw e;
        }
      }
      if (!r.ok) return r.result;
      const { abs, rel } = r.path;
      try {
        const st = await fs.stat(abs);
        if (st.isDirectory()) {
          return fail('invalid_args', `${q(rel)} is a folder, not a file. Use ls(${q(rel)}).`);
        }
        const stamp = { abs, size: st.size, mtimeMs: st.mtimeMs };
        const cached = await resolved.documents.cached(stamp);
        if (cached !== undefined) return documentResult(rel, cached, offset, limit);
        // Text is refused past 20 MB before it is read; a file named as a document may be larger.
        const max = binaryByName(rel) ? READ_MAX_DOCUMENT_BYTES : READ_MAX_FILE_BYTES;
        if (st.size > max) return tooLarge(rel, st.size, max);
        const buf = await readWhole(abs, ctx.workspace, { signal: ctx.signal, maxBytes: max });
        return await readBytes(resolved, ctx, { name: rel, bytes: buf, stamp }, { offset, limit });
      } catch (e) {
        if (e instanceof DocumentError) return documentFailure(e);
        return fsFailure(e, rel, 'read');
      }
    },
  };
}

/** Kinds that are text files (read and searched as lines unless a reader makes more of them). */
const TEXT_KINDS: ReadonlySet<DocumentKind> = new Set([
  'text',
  'csv',
  'tsv',
  'eml',
  'ipynb',
  'feed',
  'html',
  'rtf',
]);

/** Whether the file's name says it is a document that is not text (a PDF, a workbook…). */
export function binaryByName(name: string): boolean {
  const kind = kindFromName(name);
  return kind !== undefined && !TEXT_KINDS.has(kind);
}

/** Bytes read from a file or an archive member, shown as text or as a document. */
export async function readBytes(
  deps: ResolvedDeps,
  ctx: ToolContext,
  file: {
    name: string;
    bytes: Uint8Array;
    stamp: { abs: string; size: number; mtimeMs: number };
    member?: string;
  },
  range: { offset: number | undefined; limit: number | undefined },
): Promise<ToolResult> {
  const detected = detectKind(file.bytes, file.name);
  if (detected.kind === undefined) {
    return fail(
      'binary',
      `${q(file.name)} is a binary file (${detected.type}, ${formatSize(file.bytes.length)}); read shows text and documents (PDF, Office, e-mail, e-books, images, archives…), not this kind.`,
    );
  }
  const kind: DocumentKind = detected.kind;
  if (detected.decoded !== undefined && (kind === 'text' || !deps.documents.reads(kind))) {
    if (file.bytes.length > READ_MAX_FILE_BYTES) {
      return tooLarge(file.name, file.bytes.length, READ_MAX_FILE_BYTES);
    }
    return renderText(file.name, detected.decoded, range.offset ?? 1, range.limit);
  }
  if (!deps.documents.reads(kind)) {
    return fail(
      'unsupported',
      `${q(file.name)} is a file of kind ${KIND_LABELS[kind]}; reading this kind is not available in this build.`,
    );
  }
  const doc = await deps.documents.read({
    file: file.stamp,
    name: file.name,
    kind,
    load: () => Promise.resolve(file.bytes),
    signal: ctx.signal,
    ...(file.member !== undefined ? { options: { member: file.member } } : {}),
  });
  return documentResult(file.name, doc, range.offset, range.limit, isArchive(kind));
}

function documentResult(
  name: string,
  doc: Parameters<typeof renderDocument>[1],
  offset: number | undefined,
  limit: number | undefined,
  archive = isArchive(doc.kind),
): ToolResult {
  const { text, display } = renderDocument(
    name,
    doc,
    { start: offset ?? 1, limit },
    READ_MAX_BYTES,
  );
  const hint = archive ? `\n[read a member with read(${q(`${name}::<member path>`)})]` : '';
  return { ok: true, data: text + hint, display, untrusted: true };
}

function tooLarge(rel: string, size: number, max: number): ToolResult {
  return fail(
    'too_large',
    `${q(rel)} is ${formatSize(size)}; read handles files up to ${formatSize(max)}. Use grep(pattern, ${q(rel)}) to search it instead.`,
  );
}

function checkRange(offset: number | undefined, limit: number | undefined): ToolResult | undefined {
  if (offset !== undefined && (!Number.isInteger(offset) || offset < 1)) {
    return fail(
      'invalid_args',
      `offset must be a whole line or page number from 1, got ${offset}.`,
    );
  }
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    return fail(
      'invalid_args',
      `limit must be a whole number of lines or pages from 1, got ${limit}.`,
    );
  }
  return undefined;
}

/** Lines without their terminators; a final newline does not start an extra empty line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * The same lines as {@link splitLines}, found one at a time: searching a document of millions
 * of characters needs no array of all its lines, and can pause between them.
 */
export function* eachLine(text: string): Generator<string> {
  let at = 0;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    yield text.slice(at, end > at && text.charCodeAt(end - 1) === 13 ? end - 1 : end);
    if (nl < 0) return;
    at = nl + 1;
  }
}

function renderText(
  rel: string,
  decoded: DecodedText,
  start: number,
  limit: number | undefined,
): ToolResult {
  const note =
    decoded.encoding === 'utf-8' ? '' : ` · decoded from ${encodingLabel(decoded.encoding)}`;
  const lines = splitLines(decoded.text);
  const total = lines.length;
  if (total === 0) return ok(`${rel} is empty.`, `read ${rel}: empty`);
  if (start > total) {
    return fail(
      'invalid_args',
      `offset ${start} is past the end of ${q(rel)}, which has ${counted(total, 'line')}. Use an offset from 1 to ${total}.`,
    );
  }
  const want = Math.min(limit ?? READ_MAX_LINES, READ_MAX_LINES);
  const out: string[] = [];
  let bytes = 0;
  let cutLine = false;
  for (let i = start - 1; i < total && out.length < want; i++) {
    const line = lines[i] ?? '';
    const size = Buffer.byteLength(line) + 1;
    if (bytes + size > READ_MAX_BYTES) {
      if (out.length === 0) {
        // One enormous line (minified code, a data dump): show its start rather than nothing.
        out.push(
          `${line.slice(0, READ_MAX_BYTES / 4)} … [line ${i + 1} cut: it is ${formatSize(size)}]`,
        );
        cutLine = true;
      }
      break;
    }
    out.push(line);
    bytes += size;
  }
  const end = start + out.length - 1;
  const header = `${rel} · lines ${start}–${end} of ${total}${note}`;
  const parts = [header, ...out];
  if (end < total) {
    parts.push(
      `[showing lines ${start}–${end} of ${total}; call read(${q(rel)}, ${end + 1}) for more]`,
    );
  }
  const display = `read ${rel}: lines ${start}–${end} of ${total}${cutLine ? ' (long line cut)' : ''}`;
  return ok(parts.join('\n'), display);
}
