/**
 * The parts of an Office Open XML or OpenDocument package (a ZIP), read with every
 * decompression bounded: a zip bomb's declared sizes lie, so each part is inflated by zlib
 * with `maxOutputLength` set to what is left of the document's `maxInflatedBytes`, and the
 * first byte past it stops the read with a `too_large` error. Only the parts asked for are
 * inflated; {@link vetPackage} inflates all of them (still bounded) before the bytes go to a
 * library that inflates with no limit of its own (mammoth, SheetJS), and refuses any XML part
 * with a document type declaration, the door of entity-expansion attacks (no Office or
 * OpenDocument part has one).
 */
import { inflateRawSync } from 'node:zlib';
import type { ExtractInput } from './types.js';
import { DocumentError } from './types.js';

interface ZipEntry {
  readonly method: number;
  readonly flags: number;
  readonly compressedSize: number;
  readonly localOffset: number;
}

/** A package's parts by name, read on demand within one inflation budget. */
export interface ZipParts {
  readonly names: readonly string[];
  has(name: string): boolean;
  /** The part's bytes, or undefined when there is no such part. */
  bytes(name: string): Uint8Array | undefined;
  /** The part as UTF-8 text (XML parts are UTF-8 in both families). */
  text(name: string): string | undefined;
}

/** Largest inflated part kept in memory for a second read. */
const KEEP_BYTES = 4 * 1024 * 1024;
const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** Whether the bytes are an OLE compound file (legacy Office, or an encrypted OOXML file). */
export function isCompoundFile(bytes: Uint8Array): boolean {
  return CFB_MAGIC.every((b, i) => bytes[i] === b);
}

/** Whether the bytes are an encrypted OOXML file (a compound file with an EncryptionInfo stream). */
export function isEncryptedPackage(bytes: Uint8Array): boolean {
  return (
    isCompoundFile(bytes) &&
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(
      Buffer.from('EncryptionInfo', 'utf16le'),
    )
  );
}

/** Opens the package, or throws a {@link DocumentError} saying why it is not one. */
export function openPackage(input: ExtractInput, what: string): ZipParts {
  const { bytes, name } = input;
  if (isCompoundFile(bytes)) {
    // Office saves a password-protected .docx/.xlsx/.pptx as a compound file holding an
    // EncryptionInfo stream and the encrypted package; any other compound file is a
    // Word/Excel/PowerPoint 97–2003 file with a new extension.
    if (isEncryptedPackage(bytes)) {
      throw new DocumentError(
        'encrypted',
        `"${name}" is password-protected (an encrypted ${what}); it cannot be read without the password.`,
      );
    }
    throw new DocumentError(
      'unsupported',
      `"${name}" is a 97–2003 Office file (OLE compound file) with a newer extension; ` +
        'rename it to .doc or .xls to read it (PowerPoint 97–2003 files are not read).',
    );
  }
  const entries = centralDirectory(bytes, name, what);
  let budget = input.limits.maxInflatedBytes;
  const inflated = new Map<string, Uint8Array>();
  const read = (part: string): Uint8Array | undefined => {
    const done = inflated.get(part);
    if (done) return done;
    const entry = entries.get(part);
    if (!entry) return undefined;
    const data = inflateEntry(bytes, entry, part, name, budget, input.limits.maxInflatedBytes);
    budget -= data.length;
    // Small parts (XML, relationships) are kept for a second read; big ones (media, or every
    // part while vetting) are dropped so the library that reads them next does not double
    // the memory; reading one again inflates, and counts, it again.
    if (data.length <= KEEP_BYTES) inflated.set(part, data);
    return data;
  };
  return {
    names: [...entries.keys()],
    has: (part) => entries.has(part),
    bytes: read,
    text: (part) => {
      const data = read(part);
      return data && new TextDecoder('utf-8').decode(data);
    },
  };
}

/**
 * Inflates every part within the budget and refuses XML with a DTD, so that a library
 * given the same bytes afterwards inflates at most `maxInflatedBytes` and sees no entity
 * declaration. Returns the opened package for reading the parts the library does not.
 */
export function vetPackage(input: ExtractInput, what: string): ZipParts {
  const parts = openPackage(input, what);
  for (const part of parts.names) {
    if (part.endsWith('/')) continue;
    const data = parts.bytes(part);
    if (data && /\.(xml|rels|vml)$/i.test(part)) {
      refuseDoctype(data, part, input.name);
      refuseDeepNesting(data, part, input.name);
    }
  }
  return parts;
}

/** Throws when an XML part declares a document type (entities live there). */
export function refuseDoctype(data: Uint8Array | string, part: string, name: string): void {
  const head = typeof data === 'string' ? data : new TextDecoder('latin1').decode(data);
  if (/<!DOCTYPE|<!ENTITY/i.test(head)) {
    throw new DocumentError(
      'malformed',
      `"${name}" is malformed: its part ${part} declares a document type (<!DOCTYPE>), which no ` +
        'Office or OpenDocument file has; it is refused because such declarations carry ' +
        'entity-expansion attacks.',
    );
  }
}

/** Deepest element nesting accepted in any XML part (Office XML nests a few dozen levels). */
export const MAX_XML_DEPTH = 256;

/**
 * Throws when elements nest deeper than {@link MAX_XML_DEPTH}: the libraries given vetted
 * parts parse recursively, and a part nested 100,000 deep would take seconds and the stack.
 */
function refuseDeepNesting(data: Uint8Array, part: string, name: string): void {
  const LT = 0x3c;
  const GT = 0x3e;
  const SLASH = 0x2f;
  let depth = 0;
  for (let i = data.indexOf(LT); i >= 0 && i < data.length; i = data.indexOf(LT, i + 1)) {
    const next = data[i + 1];
    if (next === SLASH) depth--;
    else if (next !== 0x3f && next !== 0x21) {
      const end = data.indexOf(GT, i);
      if (end < 0) break;
      if (data[end - 1] !== SLASH) depth++;
      i = end;
    }
    if (depth > MAX_XML_DEPTH) {
      throw new DocumentError(
        'malformed',
        `"${name}" is malformed: its part ${part} nests elements deeper than ${MAX_XML_DEPTH} levels.`,
      );
    }
  }
}

function centralDirectory(bytes: Uint8Array, name: string, what: string): Map<string, ZipEntry> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const notZip = (why: string): DocumentError =>
    new DocumentError(
      'malformed',
      `"${name}" is not a readable ${what}: ${why}. The file may be truncated or of another kind.`,
    );
  if (bytes.length < 22 || view.getUint32(0, true) !== LOCAL_SIGNATURE) {
    throw notZip('it does not start like a ZIP package');
  }
  // The end record sits in the last 22 bytes plus a comment of up to 65,535.
  let eocd = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === EOCD_SIGNATURE) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw notZip('its ZIP directory is missing');
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  const entries = new Map<string, ZipEntry>();
  const utf8 = new TextDecoder('utf-8');
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL_SIGNATURE) {
      throw notZip('its ZIP directory is damaged');
    }
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const entry: ZipEntry = {
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      localOffset: view.getUint32(at + 42, true),
    };
    entries.set(utf8.decode(bytes.subarray(at + 46, at + 46 + nameLength)), entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function inflateEntry(
  bytes: Uint8Array,
  entry: ZipEntry,
  part: string,
  name: string,
  budget: number,
  limit: number,
): Uint8Array {
  const damaged = (why: string): DocumentError =>
    new DocumentError('malformed', `"${name}" is damaged: its part ${part} ${why}.`);
  if (entry.flags & 1) {
    throw new DocumentError(
      'encrypted',
      `"${name}" is password-protected (its parts are encrypted).`,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const local = entry.localOffset;
  if (local + 30 > bytes.length || view.getUint32(local, true) !== LOCAL_SIGNATURE) {
    throw damaged('is missing (the file is truncated)');
  }
  const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  const end = start + entry.compressedSize;
  if (entry.compressedSize === 0xffffffff) throw damaged('uses ZIP64 sizes, which are not read');
  if (end > bytes.length) throw damaged('is cut short (the file is truncated)');
  const data = bytes.subarray(start, end);
  const tooLarge = (): DocumentError =>
    new DocumentError(
      'too_large',
      `"${name}" expands past the limit of ${limit.toLocaleString('en')} bytes when ` +
        `decompressed (at its part ${part}); it is refused as a possible zip bomb.`,
    );
  if (entry.method === 0) {
    if (data.length > budget) throw tooLarge();
    return data;
  }
  if (entry.method !== 8) throw damaged(`uses compression method ${entry.method}, not deflate`);
  try {
    return inflateRawSync(data, { maxOutputLength: Math.max(1, budget) });
  } catch (error) {
    if (
      error instanceof RangeError ||
      (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
    ) {
      throw tooLarge();
    }
    throw damaged(`cannot be decompressed (${(error as Error).message})`);
  }
}
