/**
 * Title, subject, author and dates of a legacy Office file, from the `\x05SummaryInformation`
 * property set of its compound file (MS-OLEPS): a section of (property id, offset) pairs,
 * each value typed; strings are 8-bit in the section's code page, dates FILETIMEs.
 */
import * as XLSX from '@e965/xlsx';
import { decodeCodepage } from './codepage.js';
import type { Meta } from './officeMeta.js';

const FIELDS: ReadonlyArray<readonly [id: number, label: string]> = [
  [2, 'Title'],
  [3, 'Subject'],
  [4, 'Author'],
  [12, 'Created'],
  [13, 'Modified'],
];
const VT_I2 = 2;
const VT_LPSTR = 0x1e;
const VT_LPWSTR = 0x1f;
const VT_FILETIME = 0x40;
const CODEPAGE_ID = 1;

interface CfbEntry {
  content?: Uint8Array | number[];
}
interface CfbApi {
  read(data: Uint8Array, opts: { type: 'array' }): unknown;
  find(container: unknown, path: string): CfbEntry | null;
}

/** The summary facts, or none when the stream is missing or unreadable (never throws). */
export function oleSummary(bytes: Uint8Array): Meta {
  try {
    const cfb = XLSX.CFB as CfbApi;
    const content = cfb.find(
      cfb.read(bytes, { type: 'array' }),
      '\u0005SummaryInformation',
    )?.content;
    return content ? parseSummary(Uint8Array.from(content)) : [];
  } catch {
    return [];
  }
}

function parseSummary(data: Uint8Array): Meta {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const section = view.getUint32(44, true);
  const count = view.getUint32(section + 4, true);
  const offsets = new Map<number, number>();
  for (let i = 0; i < Math.min(count, 256); i++) {
    offsets.set(
      view.getUint32(section + 8 + i * 8, true),
      section + view.getUint32(section + 12 + i * 8, true),
    );
  }
  const codepageAt = offsets.get(CODEPAGE_ID);
  const codepage =
    codepageAt !== undefined && view.getUint16(codepageAt, true) === VT_I2
      ? view.getUint16(codepageAt + 4, true)
      : 1252;
  const meta: Meta = [];
  for (const [id, label] of FIELDS) {
    const at = offsets.get(id);
    if (at === undefined) continue;
    const value = readValue(view, data, at, codepage);
    if (value) meta.push([label, value]);
  }
  return meta;
}

function readValue(
  view: DataView,
  data: Uint8Array,
  at: number,
  codepage: number,
): string | undefined {
  const type = view.getUint16(at, true);
  if (type === VT_LPSTR || type === VT_LPWSTR) {
    const length = view.getUint32(at + 4, true);
    const bytes = data.subarray(at + 8, at + 8 + (type === VT_LPWSTR ? length * 2 : length));
    return (
      decodeCodepage(bytes, type === VT_LPWSTR ? 1200 : codepage)
        .replace(/\0+$/, '')
        .trim() || undefined
    );
  }
  if (type === VT_FILETIME) {
    const ticks = view.getBigUint64(at + 4, true);
    const ms = Number(ticks / 10_000n) - 11_644_473_600_000;
    const date = new Date(ms);
    // Unset dates are zero (1601) or small durations.
    return date.getUTCFullYear() > 1980
      ? date.toISOString().slice(0, 16).replace('T', ' ') + ' UTC'
      : undefined;
  }
  return undefined;
}
