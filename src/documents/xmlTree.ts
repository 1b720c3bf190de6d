/**
 * XML parts of Office and OpenDocument files as a small ordered tree. A part that declares a
 * document type is refused before parsing (see zipParts.ts: no such part has one, and the DTD
 * is where entity-expansion attacks live); without one, only XML's own entities and numeric
 * character references exist, and an unknown `&name;` stays as text.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { MAX_XML_DEPTH, refuseDoctype } from './zipParts.js';
import { DocumentError } from './types.js';

/** An element: its qualified name (`w:p`), attributes, and children in document order. */
export interface XmlElement {
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: readonly XmlNode[];
}
export type XmlNode = XmlElement | string;

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
