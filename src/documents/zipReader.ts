/**
 * A ZIP file read from its central directory: the member list costs no inflation at all (so a
 * 42.zip-style nest of bombs lists in microseconds), and one member is inflated only when
 * asked, through the budgeted inflater. Used by the archive reader and by EPUB. Member names
 * are data: nothing here (or anywhere in Cogito) turns one into a path that is written.
 */
import type { InflateBudget } from './inflate.js';
import { inflateRaw } from './inflate.js';
import { DocumentError } from './types.js';

/** One member as the central directory describes it. */
export interface ZipEntry {
  readonly name: string;
  /** Uncompressed size as stated by the archive (checked while inflating). */
  readonly size: number;
  readonly compressedSize: number;
  /** Last modified, as written (DOS time has no time zone): `2024-05-01 09:30`. */
  readonly modified: string;
  readonly method: number;
  readonly encrypted: boolean;
  readonly isDirectory: boolean;
  readonly localOffset: number;
}

const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** ZIP compression methods by number, for the "cannot read" message. */
const METHODS: Record<number, string> = {
  1: 'Shrink',
  6: 'Implode',
  9: 'Deflate64',
  12: 'bzip2',
  14: 'LZMA',
  93: 'Zstandard',
  95: 'xz',
  98: 'PPMd',
  99: 'AES encryption',
};

/** True when the bytes start like a ZIP file (a member, or an empty archive). */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2]! < 9;
}

/** The members of a ZIP file, in central-directory order. Throws `malformed` if none can be found. */
export function readZipEntries(bytes: Uint8Array, file: string): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEndRecord(view);
  if (eocd < 0) throw damaged(file, 'its end-of-archive record is missing (truncated?)');
  let count = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  const locator = eocd - 20;
  if (locator >= 0 && view.getUint32(locator, true) === EOCD64_LOCATOR) {
    const at = Number(view.getBigUint64(locator + 8, true));
    if (at + 56 > bytes.length || view.getUint32(at, true) !== EOCD64) {
      throw damaged(file, 'its ZIP64 end record points outside the file');
    }
    count = Number(view.getBigUint64(at + 32, true));
    offset = Number(view.getBigUint64(at + 48, true));
  }
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL) {
      throw damaged(file, `its directory ends after ${i} of the ${count} members it announces`);
    }
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const end = at + 46 + nameLength + extraLength + commentLength;
    if (end > bytes.length) throw damaged(file, `member ${i + 1}'s directory entry is cut off`);
    const flags = view.getUint16(at + 8, true);
    const rawName = bytes.subarray(at + 46, at + 46 + nameLength);
    const name = decodeName(rawName, (flags & 0x800) !== 0);
    const sizes = {
      size: view.getUint32(at + 24, true),
      compressedSize: view.getUint32(at + 20, true),
      localOffset: view.getUint32(at + 42, true),
    };
    applyZip64(view, at + 46 + nameLength, extraLength, sizes);
    entries.push({
      name,
      ...sizes,
      modified: dosDate(view.getUint16(at + 14, true), view.getUint16(at + 12, true)),
      method: view.getUint16(at + 10, true),
      encrypted: (flags & 1) !== 0,
      isDirectory: name.endsWith('/'),
    });
    at = end;
  }
  return entries;
}

/**
 * The bytes of one member: stored members are a view of the archive, deflated ones are
 * inflated against `budget`. Encrypted members and other methods are refused by name;
 * `what` names the member in messages (an Office reader says `part word/document.xml`).
 */
export function readZipMember(
  bytes: Uint8Array,
  entry: ZipEntry,
  budget: InflateBudget,
  what = `member "${entry.name}"`,
): Uint8Array {
  const file = budget.file;
  if (entry.encrypted) {
    throw new DocumentError(
      'encrypted',
      `"${file}": ${what} is password-protected; Cogito does not decrypt ZIP files. Extract or open it with the password outside Cogito.`,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL) {
    throw damaged(file, `${what}'s data is missing (its offset points outside the file)`);
  }
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const data = bytes.subarray(start, start + entry.compressedSize);
  if (data.length < entry.compressedSize) throw damaged(file, `${what} is cut off`);
  if (entry.method === 0) return data;
  if (entry.method === 8) return inflateRaw(data, budget, what, entry.size);
  const method = METHODS[entry.method] ?? `method ${entry.method}`;
  throw new DocumentError(
    'unsupported',
    `"${file}": ${what} is compressed with ${method}, which Cogito cannot decompress (it reads stored and Deflate members).`,
  );
}

function findEndRecord(view: DataView): number {
  const last = view.byteLength - 22;
  const first = Math.max(0, last - 0xffff);
  for (let at = last; at >= first; at--) {
    if (view.getUint32(at, true) === EOCD) return at;
  }
  return -1;
}

/** Sizes of 0xFFFFFFFF are in the ZIP64 extra field (id 1), in this order. */
function applyZip64(
  view: DataView,
  start: number,
  length: number,
  sizes: { size: number; compressedSize: number; localOffset: number },
): void {
  const keys = (['size', 'compressedSize', 'localOffset'] as const).filter(
    (key) => sizes[key] === 0xffffffff,
  );
  if (keys.length === 0) return;
  for (let at = start; at + 4 <= start + length;) {
    const id = view.getUint16(at, true);
    const size = view.getUint16(at + 2, true);
    if (id === 1) {
      keys.forEach((key, i) => {
        if (at + 4 + 8 * (i + 1) <= start + length) {
          sizes[key] = Number(view.getBigUint64(at + 4 + 8 * i, true));
        }
      });
      return;
    }
    at += 4 + size;
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const GB18030 = new TextDecoder('gb18030');

/**
 * Names flagged UTF-8, or valid UTF-8, are UTF-8. Others are in the maker's legacy code page;
 * Cogito's users are mostly English or Chinese, and Windows' Chinese zips use GBK (GB18030 is
 * its superset), so that is the guess (plain ASCII reads the same in all of them).
 */
function decodeName(raw: Uint8Array, utf8Flag: boolean): string {
  try {
    return UTF8.decode(raw);
  } catch {
    return utf8Flag ? new TextDecoder().decode(raw) : GB18030.decode(raw);
  }
}

function dosDate(date: number, time: number): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const year = 1980 + (date >> 9);
  return `${year}-${pad((date >> 5) & 15)}-${pad(date & 31)} ${pad(time >> 11)}:${pad((time >> 5) & 63)}`;
}

function damaged(file: string, what: string): DocumentError {
  return new DocumentError('malformed', `"${file}" is not a readable ZIP archive: ${what}.`);
}
