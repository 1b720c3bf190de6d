/**
 * The parts of an Office Open XML or OpenDocument package (a ZIP), read through the shared
 * ZIP reader (zipReader.ts) with every decompression bounded by one {@link InflateBudget}:
 * a zip bomb's declared sizes lie, so each part is inflated by zlib with `maxOutputLength`
 * set to what is left of the document's `maxInflatedBytes`, and the first byte past it stops
 * the read with a `too_large` error. Only the parts asked for are inflated; {@link vetPackage}
 * inflates all of them (still bounded) before the bytes go to a library that inflates with
 * no limit of its own (mammoth, SheetJS), and refuses any XML part with a document type
 * declaration, the door of entity-expansion attacks (no Office or OpenDocument part has one).
 */
import { InflateBudget } from './inflate.js';
import type { ExtractInput } from './types.js';
import { DocumentError } from './types.js';
import type { ZipEntry } from './zipReader.js';
import { looksLikeZip, readZipEntries, readZipMember } from './zipReader.js';
import { refuseDeepNesting, refuseDoctype } from './xmlTree.js';

/** A package's parts by name, read on demand within one inflation budget. */
export interface ZipParts {
  readonly names: readonly string[];
  has(name: string): boolean;
  /** The part's bytes, or undefined when there is no such part. */
  bytes(name: string): Uint8Array | undefined;
  /** The part as UTF-8 text (XML parts are UTF-8 in both families). */
  text(name: string): string | undefined;
  /** The text of a part the format cannot do without; throws `malformed` naming it when absent. */
  requiredText(name: string): string;
}

/** Largest inflated part kept in memory for a second read. */
const KEEP_BYTES = 4 * 1024 * 1024;
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
  if (!looksLikeZip(bytes)) {
    throw new DocumentError(
      'malformed',
      `"${name}" is not a readable ${what}: it does not start like a ZIP package. The file may be truncated or of another kind.`,
    );
  }
  const entries = new Map<string, ZipEntry>(readZipEntries(bytes, name).map((e) => [e.name, e]));
  const budget = new InflateBudget(name, input.limits.maxInflatedBytes);
  const inflated = new Map<string, Uint8Array>();
  const read = (part: string): Uint8Array | undefined => {
    const done = inflated.get(part);
    if (done) return done;
    const entry = entries.get(part);
    if (!entry) return undefined;
    const data = readPart(bytes, entry, budget);
    // Small parts (XML, relationships) are kept for a second read; big ones (media, or every
    // part while vetting) are dropped so the library that reads them next does not double
    // the memory; reading one again inflates, and counts, it again.
    if (data.length <= KEEP_BYTES) inflated.set(part, data);
    return data;
  };
  const text = (part: string): string | undefined => {
    const data = read(part);
    return data && new TextDecoder('utf-8').decode(data);
  };
  return {
    names: [...entries.keys()],
    has: (part) => entries.has(part),
    bytes: read,
    text,
    requiredText: (part) => {
      const found = text(part);
      if (found !== undefined) return found;
      throw new DocumentError(
        'malformed',
        `"${name}" is not ${/^[aeiou]/i.test(what) ? 'an' : 'a'} ${what}: it is a ZIP package without ${part}.`,
      );
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

/**
 * One part within the budget. Unlike an archive member, a part's stored bytes count too (the
 * library reading the vetted package copies them), and a part inflating past its declared
 * size is not told apart from one inflating past the budget: both are the zip bomb the
 * limit is there for, so the declared size is not passed on.
 */
function readPart(bytes: Uint8Array, entry: ZipEntry, budget: InflateBudget): Uint8Array {
  const what = `part ${entry.name}`;
  if (entry.method === 0 && entry.compressedSize > budget.remaining) throw budget.exceeded(what);
  const data = readZipMember(bytes, { ...entry, size: Number.POSITIVE_INFINITY }, budget, what);
  if (entry.method === 0) budget.spend(data.length);
  return data;
}
