/**
 * Copies a DOM subtree (linkedom's, after Readability has picked the article) into the node
 * types cheerio works on, so that the article is read by the same cleaner and text walker as
 * the page, without serialising it to HTML and parsing it a second time.
 */
import { Comment, Element, Text, type AnyNode, type ChildNode } from 'domhandler';

const HTML_NS = 'http://www.w3.org/1999/xhtml';

/** The DOM node fields read here: what linkedom (and any DOM) provides. */
export interface DomNode {
  nodeType: number;
  childNodes: ArrayLike<DomNode>;
  /** Text and comments. */
  data?: string;
  /** Elements. */
  localName?: string;
  namespaceURI?: string | null;
  attributes?: ArrayLike<{ name: string; value: string }>;
}

/** The children of `parent` as domhandler nodes, linked to each other as a parser links them. */
export function copyChildren(parent: DomNode): AnyNode[] {
  const out: ChildNode[] = [];
  for (const child of Array.from(parent.childNodes)) {
    const node = copyNode(child);
    if (node === undefined) continue;
    const prev = out[out.length - 1];
    if (prev !== undefined) {
      prev.next = node;
      node.prev = prev;
    }
    out.push(node);
  }
  return out;
}

function copyNode(node: DomNode): ChildNode | undefined {
  if (node.nodeType === 3) return new Text(node.data ?? '');
  if (node.nodeType === 8) return new Comment(node.data ?? '');
  if (node.nodeType !== 1) return undefined;
  const attribs: Record<string, string> = {};
  for (const a of Array.from(node.attributes ?? [])) attribs[a.name] = a.value;
  const children = copyChildren(node) as ChildNode[];
  const element = new Element((node.localName ?? '').toLowerCase(), attribs, children);
  // The HTML serialiser decides void elements and escaping by namespace, as parse5 sets it.
  element.namespace = node.namespaceURI ?? HTML_NS;
  for (const child of children) child.parent = element;
  return element;
}
