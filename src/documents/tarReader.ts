/**
 * A tar archive read from bytes already in memory (ustar, with GNU long names and pax
 * `path`/`size`/`mtime` records): 512-byte headers, each followed by its member's data. A
 * member's bytes are a view, so reading tar never allocates more than the archive itself.
 */
import { DocumentError } from './types.js';

export interface TarEntry {
  readonly name: string;
  readonly size: number;
  /** Last modified, in UTC: `2024-05-01 09:30`. */
  readonly modified: string;
  readonly type: 'file' | 'directory' | 'link' | 'other';
  readonly dataOffset: number;
}

export interface TarListing {
  readonly entries: TarEntry[];
  /** Set when the archive ends inside a member: what was listed is what was whole. */
  readonly truncatedAt?: string;
}

const BLOCK = 512;

/** True when the first header has tar's checksum right (ustar magic or not). */
export function looksLikeTar(bytes: Uint8Array): boolean {
  return bytes.length >= BLOCK && checksumOk(bytes.subarray(0, BLOCK));
}

/** The members of a tar archive. Throws `malformed` when the first header is not tar's. */
export function readTarEntries(bytes: Uint8Array, file: string): TarListing {
  const entries: TarEntry[] = [];
  let longName: string | undefined;
  let pax: Record<string, string> = {};
  for (let at = 0; at + BLOCK <= bytes.length;) {
    const header = bytes.subarray(at, at + BLOCK);
    if (header.every((b) => b === 0)) break;
    if (!checksumOk(header)) {
      throw new DocumentError(
        'malformed',
        entries.length === 0
          ? `"${file}" is not a tar archive (its first header's checksum is wrong).`
          : `"${file}" is damaged: the header after member "${entries.at(-1)!.name}" is corrupt.`,
      );
    }
    const size = Number(pax.size ?? octal(header.subarray(124, 136)));
    if (!Number.isSafeInteger(size) || size < 0) {
      throw new DocumentError(
        'malformed',
        `"${file}" is damaged: a member's size field is not a size.`,
      );
    }
    const flag = String.fromCharCode(header[156]!);
    const dataOffset = at + BLOCK;
    const name = pax.path ?? longName ?? headerName(header);
    if (dataOffset + size > bytes.length) return { entries, truncatedAt: name };
    const data = bytes.subarray(dataOffset, dataOffset + size);
    at = dataOffset + Math.ceil(size / BLOCK) * BLOCK;
    if (flag === 'L') {
      longName = text(data);
      continue;
    }
    if (flag === 'x') {
      pax = paxRecords(data);
      continue;
    }
    if (flag === 'g' || flag === 'K') continue;
    const mtime = Number(pax.mtime ?? octal(header.subarray(136, 148)));
    entries.push({ name, size, modified: utcMinute(mtime), type: typeOf(flag, name), dataOffset });
    longName = undefined;
    pax = {};
  }
  return { entries };
}

function typeOf(flag: string, name: string): TarEntry['type'] {
  if (flag === '5' || (flag === '0' && name.endsWith('/'))) return 'directory';
  if (flag === '0' || flag === '\0' || flag === '7') return 'file';
  if (flag === '1' || flag === '2') return 'link';
  return 'other';
}

/** ustar splits long names into a prefix (345..500) and the name (0..100). */
function headerName(header: Uint8Array): string {
  const name = text(header.subarray(0, 100));
  const ustar = text(header.subarray(257, 262)) === 'ustar';
  const prefix = ustar ? text(header.subarray(345, 500)) : '';
  return prefix ? `${prefix}/${name}` : name;
}

/** Numeric fields are octal text, or base-256 when the top bit is set (GNU, for big sizes). */
function octal(field: Uint8Array): number {
  if ((field[0]! & 0x80) !== 0) {
    let n = field[0]! & 0x7f;
    for (const b of field.subarray(1)) n = n * 256 + b;
    return n;
  }
  const digits = text(field).trim();
  return digits ? parseInt(digits, 8) || 0 : 0;
}

function checksumOk(header: Uint8Array): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!;
  const stated = text(header.subarray(148, 156)).trim();
  return stated !== '' && parseInt(stated, 8) === sum;
}

/** pax records: `<length> <key>=<value>\n`, repeated. */
function paxRecords(data: Uint8Array): Record<string, string> {
  const records: Record<string, string> = {};
  for (const line of new TextDecoder().decode(data).split('\n')) {
    const match = /^\d+ ([^=]+)=(.*)$/s.exec(line);
    if (match) records[match[1]!] = match[2]!;
  }
  return records;
}

function text(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  return new TextDecoder().decode(end < 0 ? bytes : bytes.subarray(0, end));
}

/** Seconds since 1970 as `YYYY-MM-DD HH:MM` in UTC. */
export function utcMinute(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 8.6e12) return '';
  const iso = new Date(seconds * 1000).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}
