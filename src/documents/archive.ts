/**
 * Archives (ZIP, tar, tar.gz/tgz, .gz): `extract` lists the members as a Markdown table (name,
 * size, date) without inflating a ZIP member; `memberBytes` returns one member's bytes, so the
 * caller reads `bundle.zip::folder/report.pdf` by detecting and extracting those bytes like a
 * file of their own. A member inside an archive inside an archive is named with more `::`
 * (`outer.zip::inner.tar::a.txt`), followed at most `limits.maxDepth` deep.
 *
 * Every decompression counts against `limits.maxInflatedBytes` (inflate.ts). Member names are
 * only ever names: nothing is extracted to disk, so `../../etc/passwd` is a row in a table.
 */
import { editDistance } from '../core/editDistance.js';
import { counted } from '../core/plural.js';
import { InflateBudget, formatSize, gunzip } from './inflate.js';
import { markdownTable } from './markdownTable.js';
import { looksLikeTar, readTarEntries, utcMinute } from './tarReader.js';
import type { DocumentKind, ExtractInput, ExtractedDocument } from './types.js';
import { DocumentError } from './types.js';
import { looksLikeZip, readZipEntries, readZipMember } from './zipReader.js';

/** A member as listed, with how to get its bytes. */
interface Member {
  readonly name: string;
  readonly size: number;
  readonly modified: string;
  readonly isDirectory: boolean;
  /** ZIP only: bytes stored in the archive (for the bomb warning). */
  readonly compressedSize?: number;
  readonly encrypted?: boolean;
  readonly bytes: (budget: InflateBudget) => Uint8Array;
}

interface Opened {
  readonly kind: 'zip' | 'tar' | 'gzip';
  readonly label: string;
  readonly members: Member[];
  readonly notes: string[];
}

/** Lists an archive's members (see the module comment). */
export async function extract(input: ExtractInput): Promise<ExtractedDocument> {
  const budget = new InflateBudget(input.name, input.limits.maxInflatedBytes);
  const archive = openArchive(input.bytes, input.name, budget);
  const all = archive.members;
  const from = Math.max(1, input.options.units?.from ?? 1);
  const to = Math.min(all.length, input.options.units?.to ?? all.length);
  const rows: string[][] = [];
  let chars = 0;
  let shownTo = from - 1;
  for (let n = from; n <= to; n++) {
    const m = all[n - 1]!;
    const row = [String(n), m.name, sizeCell(m), m.modified];
    chars += row.join(' | ').length + 4;
    if (chars > input.limits.maxChars) break;
    rows.push(row);
    shownTo = n;
  }
  const notes = [...archive.notes, ...memberNotes(all, input.name)];
  if (shownTo < to) {
    notes.push(
      `members ${shownTo + 1}-${to} are not listed (output cap of ${input.limits.maxChars} characters); ask for members ${shownTo + 1}-${to} next.`,
    );
  }
  const files = all.filter((m) => !m.isDirectory);
  const total = files.reduce((sum, m) => sum + m.size, 0);
  const meta: [string, string][] = [
    [
      'Members',
      `${counted(files.length, 'file')}, ${counted(all.length - files.length, 'folder')}`,
    ],
    ['Unpacked size', formatSize(total)],
  ];
  const title =
    rows.length === all.length ? 'Members' : `Members ${from}-${shownTo} of ${all.length}`;
  return {
    kind: archive.kind,
    label: archive.label,
    meta,
    unitName: 'member',
    unitCount: all.length,
    units:
      rows.length === 0
        ? []
        : [
            {
              number: from,
              title,
              markdown: markdownTable([['#', 'Name', 'Size', 'Modified'], ...rows]),
            },
          ],
    notes,
  };
}

/**
 * The bytes of the member `input.options.member` names (`inner/report.pdf`, or
 * `inner.zip::report.pdf` for a member of a member). Throws `missing` (with the nearest names)
 * when there is no such member, `too_large` past `maxInflatedBytes` or `maxDepth`.
 */
export async function memberBytes(input: ExtractInput): Promise<Uint8Array> {
  const path = input.options.member;
  if (path === undefined || path === '') {
    throw new DocumentError(
      'missing',
      `"${input.name}": no member was named; list them with read("${input.name}").`,
    );
  }
  const steps = path.split('::');
  if (steps.length > input.limits.maxDepth) {
    throw new DocumentError(
      'too_large',
      `"${input.name}::${path}" is ${steps.length} archives deep; Cogito follows archives inside archives at most ${input.limits.maxDepth} deep.`,
    );
  }
  const budget = new InflateBudget(input.name, input.limits.maxInflatedBytes);
  let bytes = input.bytes;
  let container = input.name;
  for (const step of steps) {
    const archive = openArchive(bytes, container, budget);
    const member = findMember(archive.members, step, container);
    bytes = member.bytes(budget);
    container = `${container}::${member.name}`;
  }
  return bytes;
}

/** The archive kind of `bytes` by their first bytes, or undefined when not an archive. */
export function archiveKindOf(
  bytes: Uint8Array,
): Extract<DocumentKind, 'zip' | 'tar' | 'gzip'> | undefined {
  if (looksLikeZip(bytes)) return 'zip';
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return 'gzip';
  if (looksLikeTar(bytes)) return 'tar';
  return undefined;
}

function openArchive(bytes: Uint8Array, name: string, budget: InflateBudget): Opened {
  const kind = archiveKindOf(bytes);
  if (kind === 'zip') return openZip(bytes, name);
  if (kind === 'gzip') return openGzip(bytes, name, budget);
  if (kind === 'tar') return openTar(bytes, name, 'tar', 'tar archive');
  throw new DocumentError(
    'malformed',
    `"${name}" is not a ZIP, tar or gzip archive (its first bytes match none of them), or it is damaged.`,
  );
}

function openZip(bytes: Uint8Array, name: string): Opened {
  const members = readZipEntries(bytes, name).map((entry): Member => ({
    name: entry.name,
    size: entry.size,
    modified: entry.modified,
    isDirectory: entry.isDirectory,
    compressedSize: entry.compressedSize,
    encrypted: entry.encrypted,
    bytes: (budget) => readZipMember(bytes, entry, budget),
  }));
  return { kind: 'zip', label: 'ZIP archive', members, notes: [] };
}

function openTar(bytes: Uint8Array, name: string, kind: 'tar' | 'gzip', label: string): Opened {
  const listing = readTarEntries(bytes, name);
  const members = listing.entries.map((entry): Member => ({
    name: entry.name,
    size: entry.size,
    modified: entry.modified,
    isDirectory: entry.type === 'directory',
    bytes: () => {
      if (entry.type === 'link' || entry.type === 'other') {
        throw new DocumentError(
          'unsupported',
          `"${name}": member "${entry.name}" is a link or special file, not a file with content.`,
        );
      }
      return bytes.subarray(entry.dataOffset, entry.dataOffset + entry.size);
    },
  }));
  const notes =
    listing.truncatedAt === undefined
      ? []
      : [
          `"${name}" is truncated: it ends inside member "${listing.truncatedAt}"; the members before it are listed.`,
        ];
  return { kind, label, members, notes };
}

/** A .gz holds one file; a .tar.gz/.tgz holds a tar, listed as such. */
function openGzip(bytes: Uint8Array, name: string, budget: InflateBudget): Opened {
  const header = gzipHeader(bytes, name);
  const inner = gunzip(bytes, budget, 'its gzip content');
  if (looksLikeTar(inner)) return openTar(inner, name, 'gzip', 'tar.gz archive');
  const base = name.split('::').at(-1)!.split('/').at(-1)!;
  const member: Member = {
    name: header.name || base.replace(/\.gz$/i, '') || 'content',
    size: inner.length,
    modified: utcMinute(header.mtime),
    isDirectory: false,
    bytes: () => inner,
  };
  return { kind: 'gzip', label: 'gzip file', members: [member], notes: [] };
}

/** The original name and time a gzip header may carry (RFC 1952). */
function gzipHeader(bytes: Uint8Array, file: string): { name: string; mtime: number } {
  if (bytes.length < 18 || bytes[2] !== 8) {
    throw new DocumentError(
      'malformed',
      `"${file}" is not a readable gzip file (its header is cut off or uses an unknown method).`,
    );
  }
  const flags = bytes[3]!;
  const mtime = bytes[4]! | (bytes[5]! << 8) | (bytes[6]! << 16) | (bytes[7]! * 2 ** 24);
  let at = 10;
  if (flags & 4) at += 2 + (bytes[at]! | (bytes[at + 1]! << 8));
  let name = '';
  if (flags & 8) {
    const end = bytes.indexOf(0, at);
    if (end > at) name = new TextDecoder('latin1').decode(bytes.subarray(at, end));
  }
  return { name: name.split(/[\\/]/).at(-1)!, mtime };
}

function findMember(members: readonly Member[], wanted: string, container: string): Member {
  const clean = (s: string): string => s.replace(/^\.\//, '').replace(/\/$/, '');
  const member =
    members.find((m) => m.name === wanted) ?? members.find((m) => clean(m.name) === clean(wanted));
  if (member?.isDirectory) {
    throw new DocumentError(
      'missing',
      `"${container}::${wanted}" is a folder inside the archive, not a file; list the archive with read("${container}").`,
    );
  }
  if (member) return member;
  const near = members
    .filter((m) => !m.isDirectory)
    .map((m) => ({ m, d: editDistance(m.name.toLowerCase(), wanted.toLowerCase()) }))
    .filter(({ m, d }) => d <= Math.max(2, wanted.length / 3) || m.name.endsWith(`/${wanted}`))
    .sort((a, b) => a.d - b.d)
    .slice(0, 3)
    .map(({ m }) => `"${m.name}"`);
  const hint = near.length > 0 ? ` Did you mean ${near.join(' or ')}?` : '';
  throw new DocumentError(
    'missing',
    `"${container}" has no member "${wanted}".${hint} List the members with read("${container}").`,
  );
}

function sizeCell(m: Member): string {
  if (m.isDirectory) return 'folder';
  return m.encrypted ? `${formatSize(m.size)} (encrypted)` : formatSize(m.size);
}

/** What the model should know about the members: how to read one, and what looks hostile. */
function memberNotes(members: readonly Member[], name: string): string[] {
  const notes: string[] = [];
  const first = members.find((m) => !m.isDirectory);
  if (first) notes.push(`read a member with read("${name}::${first.name}").`);
  const escaping = members.filter(
    (m) => /(^|[\\/])\.\.([\\/]|$)/.test(m.name) || /^([\\/]|[A-Za-z]:)/.test(m.name),
  );
  if (escaping.length > 0) {
    notes.push(
      `${counted(escaping.length, 'member name')} ${escaping.length === 1 ? 'climbs' : 'climb'} out of the archive's folder or start at the root (e.g. "${escaping[0]!.name}"): a sign of a hostile archive. Cogito lists and reads members by name only and never extracts them to disk; do not extract this archive with another tool.`,
    );
  }
  const bombs = members.filter(
    (m) =>
      m.compressedSize !== undefined &&
      m.size > 1e6 &&
      m.size / Math.max(1, m.compressedSize) > 1000,
  );
  if (bombs.length > 0) {
    notes.push(
      `${counted(bombs.length, 'member')} would inflate over 1000 times (e.g. "${bombs[0]!.name}", ${formatSize(bombs[0]!.compressedSize!)} to ${formatSize(bombs[0]!.size)}): likely a compression bomb.`,
    );
  }
  const encrypted = members.filter((m) => m.encrypted).length;
  if (encrypted > 0)
    notes.push(
      `${counted(encrypted, 'member')} ${isAre(encrypted)} password-protected and cannot be read.`,
    );
  const nested = members.filter((m) =>
    /\.(zip|tar|tgz|gz|jar|epub|docx|xlsx|pptx)$/i.test(m.name),
  ).length;
  if (nested > 0)
    notes.push(
      `${nested === 1 ? '1 member is an archive or packaged document' : `${nested} members are archives or packaged documents`}; read inside with more "::" (name::inner.zip::file).`,
    );
  return notes;
}

function isAre(n: number): string {
  return n === 1 ? 'is' : 'are';
}
