/**
 * `read(path, offset?, limit?)`: a text file, or a range of its lines. Binary files are
 * refused by name and type; GBK is decoded; output is capped and always says how to get
 * the rest, because a model that cannot see the end of a file should know it exists.
 */
import type { Tool, ToolArg, ToolContext, ToolResult } from '../types.js';
import { fail, ok } from '../types.js';
import type { FileToolDeps } from './deps.js';
import { resolveDeps } from './deps.js';
import { formatSize, fsFailure, numArg, q, resolvePath, strArg } from './common.js';
import { decodeText, encodingLabel } from '../../documents/encoding.js';
import { counted } from '../../core/plural.js';

/** Most lines returned by one call. */
const READ_MAX_LINES = 2000;
/** Most bytes of text returned by one call. */
export const READ_MAX_BYTES = 256 * 1024;
/** Files above this are refused outright: decoding them would cost too much memory. */
export const READ_MAX_FILE_BYTES = 20 * 1024 * 1024;

/** Creates the `read` tool. */
export function createReadTool(deps?: FileToolDeps): Tool {
  const { fs, readWhole } = resolveDeps(deps);
  return {
    name: 'read',
    description: `Read a text file (UTF-8 or GBK). offset is the first line (1-based), limit the number of lines; at most ${READ_MAX_LINES} lines or ${READ_MAX_BYTES / 1024} KB per call.`,
    kind: 'read',
    params: [
      { name: 'path', type: 'string', description: 'file to read' },
      { name: 'offset', type: 'number', optional: true, description: 'first line, 1-based' },
      { name: 'limit', type: 'number', optional: true, description: 'how many lines' },
    ],
    async run(args: readonly ToolArg[], ctx: ToolContext): Promise<ToolResult> {
      const offset = numArg(args, 1);
      const limit = numArg(args, 2);
      const badRange = checkRange(offset, limit);
      if (badRange !== undefined) return badRange;
      const r = await resolvePath(ctx, strArg(args, 0), { mustExist: true });
      if (!r.ok) return r.result;
      const { abs, rel } = r.path;
      try {
        const st = await fs.stat(abs);
        if (st.isDirectory()) {
          return fail('invalid_args', `${q(rel)} is a folder, not a file. Use ls(${q(rel)}).`);
        }
        if (st.size > READ_MAX_FILE_BYTES) {
          return fail(
            'too_large',
            `${q(rel)} is ${formatSize(st.size)}; read handles files up to ${formatSize(READ_MAX_FILE_BYTES)}. Use grep(pattern, ${q(rel)}) to search it instead.`,
          );
        }
        const buf = await readWhole(abs, ctx.workspace, {
          signal: ctx.signal,
          maxBytes: READ_MAX_FILE_BYTES,
        });
        const decoded = decodeText(buf);
        if (decoded.kind === 'binary') {
          return fail(
            'binary',
            `${q(rel)} is a binary file (${decoded.type}, ${formatSize(buf.length)}); read only shows text files.`,
          );
        }
        const note =
          decoded.encoding === 'utf-8' ? '' : ` · decoded from ${encodingLabel(decoded.encoding)}`;
        return renderRange(rel, splitLines(decoded.text), offset ?? 1, limit, note);
      } catch (e) {
        return fsFailure(e, rel, 'read');
      }
    },
  };
}

function checkRange(offset: number | undefined, limit: number | undefined): ToolResult | undefined {
  if (offset !== undefined && (!Number.isInteger(offset) || offset < 1)) {
    return fail('invalid_args', `offset must be a whole line number from 1, got ${offset}.`);
  }
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    return fail('invalid_args', `limit must be a whole number of lines from 1, got ${limit}.`);
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

function renderRange(
  rel: string,
  lines: readonly string[],
  start: number,
  limit: number | undefined,
  note: string,
): ToolResult {
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
