/**
 * `grep(pattern, path?)`: a JavaScript regular expression over the text files under a
 * path. Symlinks are never followed, binaries and large files are skipped (and counted),
 * and the signal is checked between files so an interrupt stops a big search promptly.
 */
import path from 'node:path';
import type { Tool, ToolArg, ToolContext, ToolResult } from '../types.js';
import { fail, ok } from '../types.js';
import type { FileSystem, FileToolDeps } from './deps.js';
import { resolveDeps } from './deps.js';
import {
  abortedResult,
  formatSize,
  fsFailure,
  q,
  resolvePath,
  SKIPPED_DIRS,
  strArg,
} from './common.js';
import { decodeText } from '../../documents/encoding.js';
import { splitLines } from './read.js';
import { counted } from '../../core/plural.js';

/** At most this many matching lines are returned. */
export const GREP_MAX_MATCHES = 200;
/** Files above this size are skipped: they are rarely what the model is looking for. */
export const GREP_MAX_FILE_BYTES = 2 * 1024 * 1024;
/** A matching line is shown up to this many characters. */
const MAX_SHOWN_CHARS = 200;
/** Only this much of a line is tested, bounding the cost of a pathological regex. */
const MAX_TESTED_CHARS = 10_000;

interface Tally {
  matches: string[];
  files: number;
  skipped: number;
  /** The turn's redactor (identity when none is configured). */
  redact(text: string): string;
}

const same = (text: string): string => text;

/** Creates the `grep` tool. */
export function createGrepTool(deps?: FileToolDeps): Tool {
  const { fs, readWhole } = resolveDeps(deps);
  return {
    name: 'grep',
    description: `Search text files for a JavaScript regular expression (write /pattern/i to ignore case), under path (default: the whole workspace). Returns "file:line: text", at most ${GREP_MAX_MATCHES} matches.`,
    kind: 'read',
    params: [
      { name: 'pattern', type: 'string', description: 'regular expression' },
      { name: 'path', type: 'string', optional: true, description: 'file or folder to search' },
    ],
    async run(args: readonly ToolArg[], ctx: ToolContext): Promise<ToolResult> {
      const source = strArg(args, 0);
      const regex = compile(source);
      if (!(regex instanceof RegExp)) return regex;
      const r = await resolvePath(ctx, strArg(args, 1, '.') || '.', { mustExist: true });
      if (!r.ok) return r.result;
      const { abs, rel } = r.path;
      const tally: Tally = { matches: [], files: 0, skipped: 0, redact: ctx.redact ?? same };
      try {
        const st = await fs.stat(abs);
        const files = st.isDirectory() ? walk(fs, abs, rel) : single(abs, rel);
        for await (const file of files) {
          if (ctx.signal.aborted) return abortedResult('grep');
          if (ctx.workspace.fencedBy(file.abs) !== undefined) continue;
          // Opened through a checked handle: a folder swapped mid-walk cannot leak outside text.
          const read = (abs: string): Promise<Buffer> =>
            readWhole(abs, ctx.workspace, { maxBytes: GREP_MAX_FILE_BYTES });
          await searchFile(fs, file.abs, file.rel, regex, tally, read);
          if (tally.matches.length >= GREP_MAX_MATCHES) break; // enough to act on
        }
      } catch (e) {
        return fsFailure(e, rel, 'search');
      }
      if (ctx.signal.aborted) return abortedResult('grep');
      return ok(
        render(source, rel, tally),
        `grep ${source}: ${counted(tally.matches.length, 'match', 'matches')} in ${counted(tally.files, 'file')}`,
      );
    },
  };
}

/** Compiles the pattern; `/…/flags` form allowed. g and y are dropped: each line is tested once. */
function compile(source: string): RegExp | ToolResult {
  if (source === '')
    return fail(
      'invalid_args',
      'The pattern is empty. Give a regular expression such as "TODO|FIXME".',
    );
  const literal = /^\/(.+)\/([a-z]*)$/s.exec(source);
  const body = literal?.[1] ?? source;
  const flags = (literal?.[2] ?? '').replace(/[gy]/g, '');
  try {
    return new RegExp(body, flags);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return fail(
      'invalid_args',
      `Invalid regular expression ${q(source)}: ${why}. Escape special characters such as ( [ . * with a backslash.`,
    );
  }
}

interface FileRef {
  abs: string;
  rel: string;
}

async function* single(abs: string, rel: string): AsyncGenerator<FileRef> {
  yield { abs, rel };
}

/** Files under a folder in name order; symlinks and skipped folders are not entered. */
async function* walk(fs: FileSystem, abs: string, rel: string): AsyncGenerator<FileRef> {
  const entries = await fs.readdir(abs, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const childAbs = path.join(abs, entry.name);
    const childRel = rel === '.' ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.includes(entry.name)) yield* walk(fs, childAbs, childRel);
    } else if (entry.isFile()) {
      yield { abs: childAbs, rel: childRel };
    }
  }
}

async function searchFile(
  fs: FileSystem,
  abs: string,
  rel: string,
  regex: RegExp,
  tally: Tally,
  read: (abs: string) => Promise<Buffer>,
): Promise<void> {
  const st = await fs.stat(abs);
  if (st.size > GREP_MAX_FILE_BYTES) {
    tally.skipped++;
    return;
  }
  const decoded = decodeText(await read(abs));
  if (decoded.kind === 'binary') {
    tally.skipped++;
    return;
  }
  tally.files++;
  for (const [i, raw] of splitLines(decoded.text).entries()) {
    // Redacted before it is tested or cut: the pattern cannot probe a key character by
    // character, and the cut at MAX_SHOWN_CHARS cannot leave a prefix of one.
    const line = tally.redact(raw);
    if (!regex.test(line.length > MAX_TESTED_CHARS ? line.slice(0, MAX_TESTED_CHARS) : line))
      continue;
    const shown = line.length > MAX_SHOWN_CHARS ? `${line.slice(0, MAX_SHOWN_CHARS)}…` : line;
    tally.matches.push(`${rel}:${i + 1}: ${shown.trim()}`);
    if (tally.matches.length >= GREP_MAX_MATCHES) return;
  }
}

function render(source: string, rel: string, t: Tally): string {
  const skipped =
    t.skipped === 0
      ? ''
      : ` (skipped ${counted(t.skipped, 'binary or larger-than-' + formatSize(GREP_MAX_FILE_BYTES) + ' file')})`;
  const where = rel === '.' ? 'the workspace' : rel;
  const n = t.matches.length;
  if (n === 0) {
    return `No matches for ${q(source)} in ${counted(t.files, 'text file')} under ${where}${skipped}.`;
  }
  const head = `${counted(n, 'match', 'matches')} for ${q(source)} in ${counted(t.files, 'text file')} under ${where}${skipped}:`;
  const lines = [head, ...t.matches];
  if (n >= GREP_MAX_MATCHES) {
    lines.push(
      `… stopped after ${GREP_MAX_MATCHES} matches; there may be more. Narrow the pattern or the path.`,
    );
  }
  return lines.join('\n');
}
