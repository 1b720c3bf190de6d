/**
 * XML loading for every document reader, and its guards against entity expansion ("billion
 * laughs") and deep nesting. Office and OpenDocument parts become a small ordered tree
 * ({@link parseXml}): a part that declares a document type is refused before parsing (no such
 * part has one, and the DTD is where entity-expansion attacks live), and nesting past
 * {@link MAX_XML_DEPTH} is refused. EPUB package files and feeds, whose DOCTYPEs are real,
 * are loaded by cheerio in XML mode ({@link loadXml}) with the DOCTYPE dropped unread, so a
 * declared entity is never expanded: a "billion laughs" stays a few hundred bytes of text.
 */
import { load } from 'cheerio';
import type { CheerioAPI } from 'cheerio';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { DocumentError } from './types.js';

/** An element: its qualified name (`w:p`), attributes, and children in document order. */
export interface XmlElement {
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: readonly XmlNode[];
}
export type XmlNode = XmlElement | string;

/** Deepest element nesting accepted in any XML part (Office XML nests a few dozen levels). */
export const MAX_XML_DEPTH = 256;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  // Numeric references (&#x4E2D;) are decoded only with this on.
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Deeper nesting is refused: Office XML nests a few dozen levels, and the walkers recurse.
  maxNestedTags: MAX_XML_DEPTH,
});

type Raw = Record<string, unknown>;

/** Parses one part; `part` and `name` name it in errors. Returns the root element. */
export function parseXml(text: string, part: string, name: string): XmlElement {
  refuseDoctype(text, part, name);
  // The parser itself is lenient (an unclosed element just ends the part), so check first.
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw new DocumentError(
      'malformed',
      `"${name}" is damaged: its part ${part} is not well-formed XML (${valid.err.msg} at line ${valid.err.line}).`,
    );
  }
  let raw: Raw[];
  try {
    raw = parser.parse(text) as Raw[];
  } catch (error) {
    throw new DocumentError(
      'malformed',
      `"${name}" is damaged: its part ${part} is not well-formed XML (${(error as Error).message}).`,
    );
  }
  const root = convert(raw).find((n): n is XmlElement => typeof n !== 'string');
  if (!root)
    throw new DocumentError('malformed', `"${name}" is damaged: its part ${part} is empty.`);
  return root;
}

function convert(list: Raw[]): XmlNode[] {
  const out: XmlNode[] = [];
  for (const item of list) {
    for (const [key, value] of Object.entries(item)) {
      if (key === ':@') continue;
      if (key === '#text') out.push(String(value));
      else if (!key.startsWith('?') && !key.startsWith('#')) {
        const attrs = (item[':@'] ?? {}) as Record<string, string>;
        out.push({ name: key, attrs, children: convert((value ?? []) as Raw[]) });
      }
    }
  }
  return out;
}

/** The name without its namespace prefix (`w:p` → `p`). */
export function local(el: XmlElement): string {
  const colon = el.name.indexOf(':');
  return colon < 0 ? el.name : el.name.slice(colon + 1);
}

/** Child elements, optionally only those with the given qualified name. */
export function kids(el: XmlElement, name?: string): XmlElement[] {
  return el.children.filter(
    (n): n is XmlElement => typeof n !== 'string' && (name === undefined || n.name === name),
  );
}

/** The first child element with that name. */
export function kid(el: XmlElement | undefined, name: string): XmlElement | undefined {
  return el && kids(el, name)[0];
}

/** Every descendant element with that qualified name, in document order. */
export function descendants(el: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  const walk = (node: XmlElement): void => {
    for (const child of kids(node)) {
      if (child.name === name) found.push(child);
      walk(child);
    }
  };
  walk(el);
  return found;
}

/** All the text under an element, concatenated. */
export function textOf(el: XmlElement): string {
  return el.children.map((n) => (typeof n === 'string' ? n : textOf(n))).join('');
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

/**
 * Throws when elements nest deeper than {@link MAX_XML_DEPTH}: the libraries given vetted
 * parts parse recursively, and a part nested 100,000 deep would take seconds and the stack.
 */
export function refuseDeepNesting(data: Uint8Array, part: string, name: string): void {
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

/** A DOCTYPE with or without an internal subset (`[ <!ENTITY …> ]`). */
export const DOCTYPE = /<!DOCTYPE[^[>]*(\[[\s\S]*?\]\s*)?>/gi;

/** True when the text declares its own entities (the way entity-expansion attacks start). */
export function declaresEntities(text: string): boolean {
  return /<!ENTITY/i.test(text);
}

/** Parses XML; a DOCTYPE (and any entity it declares) is dropped unread. */
export function loadXml(xml: string): CheerioAPI {
  return load(xml.replace(DOCTYPE, ''), { xml: { xmlMode: true, decodeEntities: true } });
}

/** Text of XML or XHTML bytes: UTF-8 unless its XML declaration names another encoding. */
export function decodeXml(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const declared = /encoding=["']([\w-]+)["']/i.exec(head)?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder().decode(bytes);
  }
}
