/**
 * The kind of a file: its magic number first (a PDF renamed `.txt` is still a PDF), the
 * names inside a ZIP or OLE2 container, then its extension, then a look at its text (an HTML
 * page, a feed, a notebook, an e-mail). `text` is plain text; undefined is binary data that
 * Cogito does not read.
 */
import path from 'node:path';
import { decodeText, type DecodedText } from './encoding.js';
import { oleKind, sniffMagic, zipKind } from './magic.js';
import type { DocumentKind } from './types.js';

/** Extensions of each kind (lower case, without the dot). */
const EXTENSIONS: Readonly<Record<string, DocumentKind>> = {
  pdf: 'pdf',
  docx: 'docx',
  docm: 'docx',
  dotx: 'docx',
  odt: 'odt',
  rtf: 'rtf',
  doc: 'doc',
  pptx: 'pptx',
  pptm: 'pptx',
  odp: 'odp',
  xlsx: 'xlsx',
  xlsm: 'xlsx',
  xls: 'xls',
  ods: 'ods',
  csv: 'csv',
  tsv: 'tsv',
  tab: 'tsv',
  epub: 'epub',
  eml: 'eml',
  msg: 'msg',
  ipynb: 'ipynb',
  rss: 'feed',
  atom: 'feed',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  jpg: 'image',
  jpeg: 'image',
  png: 'image',
  gif: 'image',
  webp: 'image',
  heic: 'image',
  heif: 'image',
  tif: 'image',
  tiff: 'image',
  bmp: 'image',
  mp3: 'audio',
  m4a: 'audio',
  flac: 'audio',
  ogg: 'audio',
  wav: 'audio',
  aac: 'audio',
  opus: 'audio',
  mp4: 'video',
  m4v: 'video',
  mov: 'video',
  mkv: 'video',
  webm: 'video',
  avi: 'video',
  zip: 'zip',
  tar: 'tar',
  gz: 'gzip',
  tgz: 'gzip',
};

/** What each kind is called, for the model and for `ls`/`find`. */
export const KIND_LABELS: Readonly<Record<DocumentKind, string>> = {
  pdf: 'PDF',
  docx: 'Word document',
  odt: 'OpenDocument text',
  rtf: 'RTF document',
  doc: 'Word 97-2003 document',
  pptx: 'PowerPoint presentation',
  odp: 'OpenDocument presentation',
  xlsx: 'Excel workbook',
  xls: 'Excel 97-2003 workbook',
  ods: 'OpenDocument spreadsheet',
  csv: 'CSV table',
  tsv: 'TSV table',
  epub: 'EPUB e-book',
  eml: 'e-mail',
  msg: 'Outlook e-mail',
  ipynb: 'Jupyter notebook',
  feed: 'RSS/Atom feed',
  html: 'HTML page',
  image: 'image',
  audio: 'audio',
  video: 'video',
  zip: 'ZIP archive',
  tar: 'tar archive',
  gzip: 'gzip file',
  text: 'text',
};

/** The kind a file name suggests, or undefined for an extension with no kind of its own. */
export function kindFromName(name: string): DocumentKind | undefined {
  const ext = path.extname(name).slice(1).toLowerCase();
  return EXTENSIONS[ext];
}

/** Above this size, text kinds named by their extension are not decoded to be told apart. */
const DECODE_HERE_BYTES = 1024 * 1024;
const READ_ELSEWHERE: ReadonlySet<DocumentKind> = new Set(['html', 'feed', 'ipynb', 'eml']);

/** What {@link detectKind} found: the kind, and for text the decoded text it looked at. */
export type Detected =
  | { kind: DocumentKind; decoded?: DecodedText }
  | { kind: undefined; type: string; decoded?: undefined };

/**
 * The kind of a file from its bytes and name. Text kinds come with their decoded text, so a
 * caller reading plain text does not decode twice.
 */
export function detectKind(bytes: Uint8Array, name: string): Detected {
  const byName = kindFromName(name);
  const magic = sniffMagic(bytes);
  if (magic?.type === 'OLE2 compound file') {
    const kind =
      oleKind(bytes) ??
      (byName === 'doc' || byName === 'xls' || byName === 'msg' ? byName : undefined);
    return kind === undefined
      ? { kind: undefined, type: 'OLE2 compound file (legacy Office)' }
      : { kind };
  }
  if (magic?.kind === 'zip') return { kind: zipKind(bytes) };
  if (magic?.kind !== undefined) return { kind: magic.kind };
  if (magic !== undefined) return { kind: undefined, type: magic.type };
  // A big page, feed, notebook or e-mail is decoded by its reader in the extraction process:
  // decoding megabytes here would hold up the screen.
  if (bytes.length > DECODE_HERE_BYTES && byName !== undefined && READ_ELSEWHERE.has(byName))
    return { kind: byName };
  const decoded = decodeText(bytes);
  if (decoded.kind === 'binary') return { kind: undefined, type: decoded.type };
  const kind = textKind(decoded.text, byName);
  return { kind, decoded };
}

/** A text file's kind: its extension when that names a text format, else a look at its start. */
function textKind(text: string, byName: DocumentKind | undefined): DocumentKind {
  if (byName === 'csv' || byName === 'tsv' || byName === 'eml' || byName === 'ipynb') return byName;
  if (byName === 'html' || byName === 'feed' || byName === 'rtf') return byName;
  const head = text.slice(0, 2048).trimStart().toLowerCase();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<(rss|feed|rdf:rdf)\b/.test(head)) return 'feed';
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!doctype html|<html)\b/.test(head)) return 'html';
  if (head.startsWith('{') && /"nbformat"\s*:/.test(text.slice(-4096)) && /"cells"\s*:/.test(text))
    return 'ipynb';
  if (looksLikeEmail(text.slice(0, 4096))) return 'eml';
  return 'text';
}

/** Starts with RFC 5322 header lines, among them From and one of Subject, Date or Received. */
function looksLikeEmail(head: string): boolean {
  const block = head.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const lines = block.split(/\r?\n/).filter((l) => !/^[ \t]/.test(l));
  if (lines.length < 3 || !lines.every((l) => /^[A-Za-z][A-Za-z0-9-]*:/.test(l))) return false;
  const names = new Set(lines.map((l) => l.slice(0, l.indexOf(':')).toLowerCase()));
  return names.has('from') && (names.has('subject') || names.has('date') || names.has('received'));
}
