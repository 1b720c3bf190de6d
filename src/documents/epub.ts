/**
 * EPUB e-books: the metadata of the package file (title, authors, language, date, publisher)
 * and one unit per chapter of the spine, each chapter's XHTML as Markdown. The book is a ZIP
 * read through zipReader (every chapter inflated against one budget); its XML is parsed by
 * cheerio, which never expands entities the book declares (markup.ts). A DRM-protected book
 * is refused by name rather than read as noise.
 */
import path from 'node:path/posix';
import type { CheerioAPI } from 'cheerio';
import { htmlToMarkdown } from './markup.js';
import { declaresEntities, decodeXml, loadXml } from './xmlTree.js';
import { InflateBudget } from './inflate.js';
import type { DocumentUnit, ExtractInput, ExtractedDocument } from './types.js';
import { DocumentError } from './types.js';
import { unitWindow } from './unitWindow.js';
import { readZipEntries, readZipMember } from './zipReader.js';
import type { ZipEntry } from './zipReader.js';

/** Font obfuscation: not DRM, the text is readable. */
const FONT_OBFUSCATION = ['http://www.idpf.org/2008/embedding', 'http://ns.adobe.com/pdf/enc#RC'];

export async function extract(input: ExtractInput): Promise<ExtractedDocument> {
  const book = openBook(input);
  const notes: string[] = [];
  const opfPath = rootfileOf(book);
  const opfText = book.text(opfPath);
  if (opfText === undefined)
    throw malformed(input.name, `its package file "${opfPath}" is missing`);
  if (declaresEntities(opfText)) {
    notes.push(
      `"${opfPath}" declares its own XML entities; they were not expanded (an entity-expansion attack, or an odd tool).`,
    );
  }
  const $ = loadXml(opfText);
  const chapters = spineOf($, path.dirname(opfPath));
  if (chapters.length === 0)
    throw malformed(input.name, 'its package file lists no chapters (an empty spine)');
  let expansions = 0;
  const unitAt = (n: number): DocumentUnit => {
    const file = chapters[n - 1]!;
    const xhtml = book.text(file);
    if (xhtml === undefined) {
      return {
        title: `Chapter ${n}`,
        markdown: `(this chapter's file "${file}" is missing from the book)`,
      };
    }
    if (declaresEntities(xhtml)) expansions++;
    const markdown = htmlToMarkdown(xhtml);
    const heading = /^#{1,3} +(.+)$/m.exec(markdown)?.[1]?.trim();
    return { title: heading ? `Chapter ${n}: ${heading}` : `Chapter ${n}`, markdown };
  };
  const window = unitWindow(chapters.length, unitAt, input, 'chapter');
  if (expansions > 0) {
    notes.push(
      `${expansions} chapter file(s) declare their own XML entities; they were not expanded.`,
    );
  }
  return {
    kind: 'epub',
    label: 'EPUB e-book',
    meta: metadataOf($),
    unitName: 'chapter',
    unitCount: chapters.length,
    units: window.units,
    notes: [...notes, ...window.notes],
  };
}

interface Book {
  readonly names: readonly string[];
  /** A member's text (UTF-8, or the encoding its XML declaration names), or undefined if absent. */
  text(name: string): string | undefined;
}

function openBook(input: ExtractInput): Book {
  let entries: ZipEntry[];
  try {
    entries = readZipEntries(input.bytes, input.name);
  } catch (e) {
    if (e instanceof DocumentError)
      throw malformed(input.name, `it is not a readable ZIP container (${e.message})`);
    throw e;
  }
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const budget = new InflateBudget(input.name, input.limits.maxInflatedBytes);
  const book: Book = {
    names: entries.map((entry) => entry.name),
    text(name) {
      const entry = byName.get(name);
      return entry === undefined ? undefined : decodeXml(readZipMember(input.bytes, entry, budget));
    },
  };
  refuseDrm(book, input.name);
  return book;
}

function rootfileOf(book: Book): string {
  const container = book.text('META-INF/container.xml');
  const rootfile =
    container === undefined ? undefined : loadXml(container)('rootfile').attr('full-path');
  // Books without a container exist; their package file is then the one .opf in the book.
  return rootfile ?? book.names.find((name) => name.endsWith('.opf')) ?? 'META-INF/container.xml';
}

/** The spine's documents, as member names. */
function spineOf($: CheerioAPI, base: string): string[] {
  const manifest = new Map<string, string>();
  byLocalName($, 'item').each((_, item) => {
    const id = $(item).attr('id');
    const href = $(item).attr('href');
    if (id && href) manifest.set(id, href);
  });
  const files: string[] = [];
  byLocalName($, 'itemref').each((_, ref) => {
    const href = manifest.get($(ref).attr('idref') ?? '');
    if (href === undefined) return;
    const clean = href.split('#')[0]!;
    let name = clean;
    try {
      name = decodeURIComponent(clean);
    } catch {
      // a stray % in the name: use it as written
    }
    files.push(path.normalize(path.join(base, name)).replace(/^\.\//, ''));
  });
  return files;
}

function metadataOf($: CheerioAPI): [string, string][] {
  const values = (local: string): string[] =>
    byLocalName($, local)
      .toArray()
      .map((el) => $(el).text().replace(/\s+/g, ' ').trim())
      .filter(Boolean);
  const meta: [string, string][] = [];
  const add = (label: string, list: string[]): void => {
    if (list.length > 0) meta.push([label, list.join(', ')]);
  };
  add('Title', values('title').slice(0, 1));
  add('Author', values('creator'));
  add('Language', values('language'));
  add('Date', values('date').slice(0, 1));
  add('Publisher', values('publisher'));
  return meta;
}

/** Elements by local name, whatever their prefix (`dc:title`, `opf:item`, `item`). */
function byLocalName($: CheerioAPI, local: string) {
  return $('*').filter((_, el) => el.type === 'tag' && el.tagName.split(':').pop() === local);
}

/** META-INF/encryption.xml listing chapters under real encryption means DRM. */
function refuseDrm(book: Book, file: string): void {
  const encryption = book.text('META-INF/encryption.xml');
  if (encryption === undefined) return;
  const $ = loadXml(encryption);
  const locked = byLocalName($, 'EncryptedData').filter((_, data) => {
    const algorithm = byLocalNameIn($, data, 'EncryptionMethod').attr('Algorithm') ?? '';
    const uri = byLocalNameIn($, data, 'CipherReference').attr('URI') ?? '';
    return !FONT_OBFUSCATION.includes(algorithm) && /\.x?html?$/i.test(uri);
  });
  if (locked.length > 0) {
    throw new DocumentError(
      'encrypted',
      `"${file}" is a DRM-protected e-book: its chapters are encrypted and cannot be read.`,
    );
  }
}

function byLocalNameIn($: CheerioAPI, scope: Parameters<CheerioAPI>[0], local: string) {
  return $(scope)
    .find('*')
    .filter((_, el) => el.type === 'tag' && el.tagName.split(':').pop() === local);
}

function malformed(file: string, what: string): DocumentError {
  return new DocumentError('malformed', `"${file}" is not a readable EPUB: ${what}.`);
}
