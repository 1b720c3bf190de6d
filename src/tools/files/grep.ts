/**
 * `grep(pattern, path?)`: a JavaScript regular expression over the text files and documents
 * under a path. A document (PDF, Office, e-mail, e-book…) is searched in its extracted text,
 * each match naming its page, slide or sheet; extracted text comes from the cache in the home
 * when the file has not changed, so a second search extracts nothing. Symlinks are never
 * followed, binaries and large files are skipped (and counted), and the signal is checked
 * between files so an interrupt stops a big search promptly (and kills an extraction).
 */
import path from 'node:path';
import type { Tool, ToolArg, ToolContext, ToolResult } from '../types.js';
import { fail } from '../types.js';
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
import { detectKind } from '../../documents/detect.js';
import { DocumentError, type ExtractedDocument } from '../../documents/types.js';
import type { DocumentReader } from '../../documents/reader.js';
import { binaryByName, eachLine } from './read.js';
import { READ_MAX_DOCUMENT_BYTES } from './documentView.js';
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
  /** Documents searched in their extracted text. */
  documents: number;
  /** Documents that could not be read, with why (the first few are named). */
  unreadable: string[];
  /** The turn's redactor (identity when none is configured). */
  redact(text: string): string;
  /** Characters searched since the event loop last had a turn. */
  sinceTurn: number;
}

/**
 * Characters searched between two turns of the event loop: a document of millions of
 * characters (a 500-page PDF) is searched in slices, so the screen's echo is not held up.
 */
const SLICE_CHARS = 256 * 1024;

/** Lets the event loop run (keys, redraws) once a slice has been searched. */
async function nextTurn(tally: Tally): Promise<void> {
  tally.sinceTurn = 0;
  await new Promise((resolve) => setImmediate(resolve));
}

const same = (text: string): string => text;

/** Creates the `grep` tool. */
export function createGrepTool(deps?: FileToolDeps): Tool {
  const { fs, readWhole, documents } = resolveDeps(deps);
  return {
    name: 'grep',
    description: `Search text files and documents (PDF, Word, PowerPoint, Excel, e-mail, e-books…) for a JavaScript regular expression (write /pattern/i to ignore case), under path (default: the whole workspace). Returns "file:line: text", for a document "file (page N): text", at most ${GREP_MAX_MATCHES} matches.`,
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
      const tally: Tally = {
        matches: [],
        files: 0,
        skipped: 0,
        documents: 0,
        unreadable: [],
        redact: ctx.redact ?? same,
        sinceTurn: 0,
      };
      try {
        const st = await fs.stat(abs);
        const files = st.isDirectory() ? walk(fs, abs, rel) : single(abs, rel);
        for await (const file of files) {
          if (ctx.signal.aborted) return abortedResult('grep');
          if (ctx.workspace.fencedBy(file.abs) !== undefined) continue;
          // Opened through a checked handle: a folder swapped mid-walk cannot leak outside text.
          const read = (abs: string, maxBytes: number): Promise<Buffer> =>
            readWhole(abs, ctx.workspace, { maxBytes, signal: ctx.signal });
          await searchFile({ fs, documents, read, signal: ctx.signal }, file, regex, tally);
          if (tally.matches.length >= GREP_MAX_MATCHES) break; // enough to act on
        }
      } catch (e) {
        return fsFailure(e, rel, 'search');
      }
      if (ctx.signal.aborted) return abortedResult('grep');
      const display = `grep ${source}: ${counted(tally.matches.length, 'match', 'matches')} in ${counted(tally.files, 'file')}`;
      // Text from a document is content from outside: it reaches the model wrapped as data.
      const untrusted = tally.documents > 0;
      return { ok: true, data: render(source, rel, tally), display, untrusted };
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

interface SearchDeps {
  fs: FileSystem;
  documents: DocumentReader;
  read(abs: string, maxBytes: number): Promise<Buffer>;
  signal: AbortSignal;
}

/** Grep reads documents without OCR (seconds a page); a read's OCR'd text is used when cached. */
const GREP_OPTIONS = { ocr: false } as const;

async function searchFile(
  deps: SearchDeps,
  file: FileRef,
  regex: RegExp,
  tally: Tally,
): Promise<void> {
  const st = await deps.fs.stat(file.abs);
  const stamp = { abs: file.abs, size: st.size, mtimeMs: st.mtimeMs };
  const cached =
    (await deps.documents.cached(stamp)) ?? (await deps.documents.cached(stamp, GREP_OPTIONS));
  if (cached !== undefined) return searchDocument(file.rel, cached, regex, tally);
  const max = binaryByName(file.rel) ? READ_MAX_DOCUMENT_BYTES : GREP_MAX_FILE_BYTES;
  if (st.size > max) {
    tally.skipped++;
    return;
  }
  const bytes = await deps.read(file.abs, max);
  const detected = detectKind(bytes, file.rel);
  if (detected.decoded !== undefined && bytes.length <= GREP_MAX_FILE_BYTES) {
    return searchLines(file.rel, detected.decoded.text, regex, tally);
  }
  if (detected.kind === undefined || !deps.documents.reads(detected.kind)) {
    tally.skipped++;
    return;
  }
  try {
    const doc = await deps.documents.read({
      file: stamp,
      name: file.rel,
      kind: detected.kind,
      load: () => Promise.resolve(bytes),
      options: GREP_OPTIONS,
      signal: deps.signal,
    });
    await searchDocument(file.rel, doc, regex, tally);
  } catch (e) {
    if (!(e instanceof DocumentError) || e.kind === 'aborted') throw e;
    tally.unreadable.push(e.message);
  }
}

/** Redacted before it is tested or cut: the pattern cannot probe a key character by character. */
function matchLine(raw: string, regex: RegExp, tally: Tally): string | undefined {
  const line = tally.redact(raw);
  if (!regex.test(line.length > MAX_TESTED_CHARS ? line.slice(0, MAX_TESTED_CHARS) : line))
    return undefined;
  const shown = line.length > MAX_SHOWN_CHARS ? `${line.slice(0, MAX_SHOWN_CHARS)}…` : line;
  return shown.trim();
}

async function searchLines(rel: string, text: string, regex: RegExp, tally: Tally): Promise<void> {
  tally.files++;
  let line = 0;
  for (const raw of eachLine(text)) {
    line++;
    tally.sinceTurn += raw.length;
    if (tally.sinceTurn >= SLICE_CHARS) await nextTurn(tally);
    const shown = matchLine(raw, regex, tally);
    if (shown === undefined) continue;
    tally.matches.push(`${rel}:${line}: ${shown}`);
    if (tally.matches.length >= GREP_MAX_MATCHES) return;
  }
}

/** A document's units line by line; each match names its unit (page 3, sheet 2…). */
async function searchDocument(
  rel: string,
  doc: ExtractedDocument,
  regex: RegExp,
  tally: Tally,
): Promise<void> {
  tally.files++;
  tally.documents++;
  for (const unit of doc.units) {
    const where =
      doc.units.length === 1 && doc.unitCount <= 1 ? '' : ` (${doc.unitName} ${unit.number})`;
    for (const raw of eachLine(unit.markdown)) {
      tally.sinceTurn += raw.length;
      if (tally.sinceTurn >= SLICE_CHARS) await nextTurn(tally);
      const shown = matchLine(raw, regex, tally);
      if (shown === undefined) continue;
      tally.matches.push(`${rel}${where}: ${shown}`);
      if (tally.matches.length >= GREP_MAX_MATCHES) return;
    }
  }
}

function render(source: string, rel: string, t: Tally): string {
  const skipped =
    t.skipped === 0
      ? ''
      : ` (skipped ${counted(t.skipped, 'binary or larger-than-' + formatSize(GREP_MAX_FILE_BYTES) + ' file')})`;
  const where = rel === '.' ? 'the workspace' : rel;
  const n = t.matches.length;
  const unreadable =
    t.unreadable.length === 0
      ? []
      : [
          `${counted(t.unreadable.length, 'document')} could not be read: ${t.unreadable.slice(0, 3).join(' ')}${t.unreadable.length > 3 ? ' …' : ''}`,
        ];
  if (n === 0) {
    return [
      `No matches for ${q(source)} in ${counted(t.files, 'file')} under ${where}${skipped}.`,
      ...unreadable,
    ].join('\n');
  }
  const head = `${counted(n, 'match', 'matches')} for ${q(source)} in ${counted(t.files, 'file')} under ${where}${skipped}:`;
  const lines = [head, ...t.matches, ...unreadable];
  if (n >= GREP_MAX_MATCHES) {
    lines.push(
      `… stopped after ${GREP_MAX_MATCHES} matches; there may be more. Narrow the pattern or the path.`,
    );
  }
  return lines.join('\n');
}
