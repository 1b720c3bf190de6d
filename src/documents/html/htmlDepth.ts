/**
 * Caps how deeply an HTML page nests before it is parsed. A 2 MB page of 200,000 nested
 * `<div>`s once kept fetchPage busy for 15 minutes (work in the DOM walkers grows with the
 * square of the depth) and overflowed the stack; no real page nests anywhere near
 * {@link MAX_HTML_DEPTH}. One linear pass drops the tags below the cap and keeps their text,
 * so the page still reads, only flatter.
 */

/** Deeper elements than this are flattened into their ancestor at this depth. */
export const MAX_HTML_DEPTH = 128;

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
/** Elements whose content is text up to their own end tag. */
const RAW = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'noscript']);

const NAME = /(\/?)([a-zA-Z][a-zA-Z0-9:-]{0,63})/y;

/** One tag found by {@link nextTag}: where it starts and ends, its name, its form. */
interface TagSpan {
  start: number;
  end: number;
  name: string;
  closing: boolean;
  selfClosing: boolean;
}

/**
 * The next tag at or after `from`, or undefined at the end. Linear overall: every search
 * moves forward, and text that only looks like the start of a tag is skipped whole.
 */
function nextTag(html: string, from: number): TagSpan | undefined {
  let i = html.indexOf('<', from);
  while (i !== -1) {
    if (html.startsWith('<!--', i)) {
      const close = html.indexOf('-->', i + 4);
      if (close === -1) return undefined;
      i = html.indexOf('<', close + 3);
      continue;
    }
    const gt = html.indexOf('>', i + 1);
    if (gt === -1) return undefined;
    NAME.lastIndex = i + 1;
    const m = NAME.exec(html);
    if (m !== null && m.index + m[0].length <= gt) {
      return {
        start: i,
        end: gt + 1,
        name: (m[2] ?? '').toLowerCase(),
        closing: m[1] === '/',
        selfClosing: html.charCodeAt(gt - 1) === 0x2f,
      };
    }
    i = html.indexOf('<', i + 1);
  }
  return undefined;
}

/** The result of {@link capHtmlDepthSteps}. */
interface CappedHtml {
  html: string;
  /** Some nesting was removed. */
  flattened: boolean;
}

/**
 * The page with nesting past `maxDepth` removed, and whether anything was removed, yielding
 * now and then for the event loop: run it with `drainYielding(…, signal)` so an interrupt
 * lands while a hostile page is flattened.
 */
export function* capHtmlDepthSteps(
  html: string,
  maxDepth: number = MAX_HTML_DEPTH,
): Generator<void, CappedHtml, void> {
  let steps = 0;
  let depth = 0;
  let dropped = 0;
  const kept: string[] = [];
  let prev = 0;
  let lower: string | undefined;
  const drop = (tag: TagSpan): void => {
    if (tag.start > prev) kept.push(html.slice(prev, tag.start));
    prev = tag.end;
  };
  for (let tag = nextTag(html, 0); tag !== undefined;) {
    let resume = tag.end;
    if (!tag.closing && RAW.has(tag.name)) {
      // Skip to its end tag: `<div>` inside a script is not markup.
      lower ??= html.toLowerCase();
      const end = lower.indexOf(`</${tag.name}`, tag.end);
      resume = end === -1 ? html.length : end;
    } else if (!tag.closing && !VOID.has(tag.name) && !tag.selfClosing) {
      if (depth >= maxDepth) {
        drop(tag);
        dropped += 1;
      } else depth += 1;
    } else if (tag.closing && dropped > 0) {
      drop(tag);
      dropped -= 1;
    } else if (tag.closing && depth > 0) depth -= 1;
    tag = nextTag(html, resume);
    if (++steps % 256 === 0) yield;
  }
  if (prev === 0) return { html, flattened: false };
  kept.push(html.slice(prev));
  return { html: kept.join(''), flattened: true };
}
