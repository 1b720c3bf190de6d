/**
 * What a file is from its first bytes (magic numbers) and, for containers, from the names
 * inside: a ZIP's central directory tells a Word document from a spreadsheet or an e-book,
 * an OLE2 compound file's directory tells a legacy .doc from an .xls or an Outlook .msg.
 * Nothing here decompresses or parses beyond a fixed number of bytes, so it is safe on any
 * input and cheap enough for every file a grep walks.
 */
import type { DocumentKind } from './types.js';

interface Magic {
  readonly bytes: readonly number[];
  readonly offset?: number;
  /** The document kind it starts, when Cogito reads that kind. */
  readonly kind?: DocumentKind;
  /** Its name, for a refusal of something that is not read. */
  readonly type: string;
}

const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

/** Magic numbers, most specific first. */
const MAGIC: readonly Magic[] = [
  { bytes: ascii('%PDF-'), kind: 'pdf', type: 'PDF document' },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], type: 'OLE2 compound file' },
  { bytes: [0x50, 0x4b, 0x03, 0x04], kind: 'zip', type: 'ZIP archive' },
  { bytes: [0x50, 0x4b, 0x05, 0x06], kind: 'zip', type: 'ZIP archive (empty)' },
  { bytes: ascii('{\\rtf'), kind: 'rtf', type: 'RTF document' },
  { bytes: [0x1f, 0x8b], kind: 'gzip', type: 'gzip archive' },
  { bytes: ascii('ustar'), offset: 257, kind: 'tar', type: 'tar archive' },
  { bytes: [0x89, 0x50, 0x4e, 0x47], kind: 'image', type: 'PNG image' },
  { bytes: [0xff, 0xd8, 0xff], kind: 'image', type: 'JPEG image' },
  { bytes: ascii('GIF8'), kind: 'image', type: 'GIF image' },
  { bytes: ascii('WEBP'), offset: 8, kind: 'image', type: 'WebP image' },
  { bytes: [0x49, 0x49, 0x2a, 0x00], kind: 'image', type: 'TIFF image' },
  { bytes: [0x4d, 0x4d, 0x00, 0x2a], kind: 'image', type: 'TIFF image' },
  { bytes: ascii('ID3'), kind: 'audio', type: 'MP3 audio' },
  { bytes: ascii('fLaC'), kind: 'audio', type: 'FLAC audio' },
  { bytes: ascii('OggS'), kind: 'audio', type: 'Ogg audio' },
  { bytes: ascii('WAVE'), offset: 8, kind: 'audio', type: 'WAV audio' },
  { bytes: ascii('AVI '), offset: 8, kind: 'video', type: 'AVI video' },
  { bytes: [0x1a, 0x45, 0xdf, 0xa3], kind: 'video', type: 'Matroska/WebM video' },
  { bytes: ascii('ftyp'), offset: 4, kind: 'video', type: 'MP4/MOV video' },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf], type: '7z archive' },
  { bytes: ascii('Rar!'), type: 'RAR archive' },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], type: 'ELF executable' },
  { bytes: ascii('MZ'), type: 'Windows executable' },
  { bytes: [0xcf, 0xfa, 0xed, 0xfe], type: 'Mach-O executable' },
  { bytes: [0x00, 0x61, 0x73, 0x6d], type: 'WebAssembly module' },
  { bytes: ascii('SQLite format 3'), type: 'SQLite database' },
];

/** ISO media brands (after `ftyp`) that are pictures or sound rather than video. */
const FTYP_BRANDS: Readonly<Record<string, { kind: DocumentKind; type: string }>> = {
  heic: { kind: 'image', type: 'HEIC image' },
  heix: { kind: 'image', type: 'HEIC image' },
  mif1: { kind: 'image', type: 'HEIF image' },
  msf1: { kind: 'image', type: 'HEIF image' },
  avif: { kind: 'image', type: 'AVIF image' },
  'M4A ': { kind: 'audio', type: 'M4A audio' },
  'M4B ': { kind: 'audio', type: 'M4B audio book' },
};

function matches(buf: Uint8Array, m: Magic): boolean {
  const at = m.offset ?? 0;
  return buf.length >= at + m.bytes.length && m.bytes.every((b, i) => buf[at + i] === b);
}

/** The magic number a file starts with, refined for ISO media and MPEG audio frames. */
export function sniffMagic(buf: Uint8Array): { kind?: DocumentKind; type: string } | undefined {
  // A PDF may carry a few bytes of junk before its header; readers accept it within 1 KB.
  if (indexOf(buf.subarray(0, 1024), ascii('%PDF-')) >= 0)
    return { kind: 'pdf', type: 'PDF document' };
  const m = MAGIC.find((magic) => matches(buf, magic));
  if (m?.type === 'MP4/MOV video') {
    const brand = String.fromCharCode(...buf.subarray(8, 12));
    return FTYP_BRANDS[brand] ?? m;
  }
  if (m !== undefined) return m;
  // "BM" starts many words: a bitmap also has four zero reserved bytes at 6.
  if (
    buf[0] === 0x42 &&
    buf[1] === 0x4d &&
    buf.length > 26 &&
    buf.subarray(6, 10).every((b) => b === 0)
  )
    return { kind: 'image', type: 'BMP image' };
  // An MPEG audio frame without ID3 tags: 11 sync bits, layer III/II.
  if (buf[0] === 0xff && buf[1] !== undefined && (buf[1] & 0xe0) === 0xe0 && (buf[1] & 0x06) !== 0)
    return { kind: 'audio', type: 'MP3 audio' };
  return undefined;
}

/** Names a binary format from its magic number, or undefined when nothing is known. */
export function sniffBinaryType(buf: Uint8Array): string | undefined {
  const m = sniffMagic(buf);
  // RTF is text, and decoding it as text is better than calling it binary.
  return m?.kind === 'rtf' ? undefined : m?.type;
}

export function indexOf(hay: Uint8Array, needle: readonly number[], from = 0): number {
  return Buffer.from(hay.buffer, hay.byteOffset, hay.byteLength).indexOf(Buffer.from(needle), from);
}

/**
 * The file names in a ZIP's central directory (read from the end record, no inflating), and
 * the stored `mimetype` member's text when it leads the archive (ODF and EPUB). At most
 * `max` names: enough to tell the kind.
 */
export function zipNames(buf: Uint8Array, max = 2000): { names: string[]; mimetype?: string } {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const names: string[] = [];
  const mimetype = leadingMimetype(buf, view);
  const eocd = lastIndexOfSignature(buf, 0x06054b50, 65_557);
  if (eocd < 0 || eocd + 22 > buf.length) return { names, ...(mimetype ? { mimetype } : {}) };
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  const decoder = new TextDecoder('utf-8');
  for (let i = 0; i < count && i < max && at + 46 <= buf.length; i++) {
    if (view.getUint32(at, true) !== 0x02014b50) break;
    const nameLength = view.getUint16(at + 28, true);
    const extra = view.getUint16(at + 30, true);
    const comment = view.getUint16(at + 32, true);
    names.push(decoder.decode(buf.subarray(at + 46, at + 46 + nameLength)));
    at += 46 + nameLength + extra + comment;
  }
  return { names, ...(mimetype ? { mimetype } : {}) };
}

function leadingMimetype(buf: Uint8Array, view: DataView): string | undefined {
  if (buf.length < 38 || view.getUint32(0, true) !== 0x04034b50) return undefined;
  const method = view.getUint16(8, true);
  const size = view.getUint32(18, true);
  const nameLength = view.getUint16(26, true);
  const extra = view.getUint16(28, true);
  const name = String.fromCharCode(...buf.subarray(30, 30 + nameLength));
  if (name !== 'mimetype' || method !== 0 || size > 200) return undefined;
  const start = 30 + nameLength + extra;
  return String.fromCharCode(...buf.subarray(start, start + size)).trim();
}

function lastIndexOfSignature(buf: Uint8Array, signature: number, window: number): number {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const stop = Math.max(0, buf.length - window);
  for (let i = buf.length - 22; i >= stop; i--) {
    if (view.getUint32(i, true) === signature) return i;
  }
  return -1;
}

/** The kind of a ZIP-based document from its member names, or `zip` for a plain archive. */
export function zipKind(buf: Uint8Array): DocumentKind {
  const { names, mimetype } = zipNames(buf);
  const odf: Readonly<Record<string, DocumentKind>> = {
    'application/vnd.oasis.opendocument.text': 'odt',
    'application/vnd.oasis.opendocument.spreadsheet': 'ods',
    'application/vnd.oasis.opendocument.presentation': 'odp',
    'application/epub+zip': 'epub',
  };
  if (mimetype !== undefined && odf[mimetype] !== undefined) return odf[mimetype];
  const has = (prefix: string): boolean => names.some((n) => n.startsWith(prefix));
  if (has('word/')) return 'docx';
  if (has('xl/')) return 'xlsx';
  if (has('ppt/')) return 'pptx';
  if (has('META-INF/container.xml') && names.some((n) => n.endsWith('.opf'))) return 'epub';
  return 'zip';
}

/** UTF-16LE bytes of a name as it appears in an OLE2 directory entry. */
const wide = (s: string): number[] => [...s].flatMap((c) => [c.charCodeAt(0), 0]);

/**
 * The kind of an OLE2 compound file from the stream names in its directory: `WordDocument`
 * (.doc), `Workbook`/`Book` (.xls), `__substg1.0_` properties (Outlook .msg). Undefined for
 * other compound files (legacy PowerPoint, Visio, installers).
 */
export function oleKind(buf: Uint8Array): DocumentKind | undefined {
  if (indexOf(buf, wide('__substg1.0_')) >= 0) return 'msg';
  if (indexOf(buf, wide('WordDocument')) >= 0) return 'doc';
  if (indexOf(buf, wide('Workbook')) >= 0 || indexOf(buf, wide('Book')) >= 0) return 'xls';
  return undefined;
}
