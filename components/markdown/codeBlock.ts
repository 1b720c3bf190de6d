/**
 * A fenced code block as styled lines: highlighted by highlight.js when the language is
 * known (and the highlighter loaded), kept verbatim otherwise. Lines are never re-wrapped;
 * the pane cuts what does not fit.
 */
import { decodeEntities } from './inline.js';
import { highlighter, loadHighlighter } from './highlightLoad.js';
import type { Span, SpanStyle } from './spans.js';

/** Colours by highlight.js scope (the first class name of a span decides). */
const SCOPE: Record<string, SpanStyle> = {
  keyword: { color: 'magenta' },
  built_in: { color: 'cyan' },
  type: { color: 'cyan' },
  literal: { color: 'blue' },
  number: { color: 'blue' },
  string: { color: 'green' },
  regexp: { color: 'green' },
  comment: { dimColor: true, italic: true },
  meta: { dimColor: true },
  title: { color: 'yellow' },
  attr: { color: 'cyan' },
  attribute: { color: 'cyan' },
  variable: { color: 'red' },
  tag: { color: 'red' },
  name: { color: 'red' },
  addition: { color: 'green' },
  deletion: { color: 'red' },
  section: { bold: true },
  symbol: { color: 'blue' },
};

/** The lines of `code`, each as spans (coloured when `lang` is a language we know). */
export function codeLines(code: string, lang: string | undefined): Span[][] {
  const hl = highlighter();
  const name = (lang ?? '').trim().split(/\s+/)[0]!.toLowerCase();
  // The first code block loads the highlighter; the reply pane redraws once it is ready.
  if (!hl) void loadHighlighter();
  if (hl && name && hl.getLanguage(name)) {
    try {
      return htmlToLines(hl.highlight(code, { language: name, ignoreIllegals: true }).value);
    } catch {
      // A grammar that fails on odd input: show the code plain rather than nothing.
    }
  }
  return code.split('\n').map((line) => [{ text: line }]);
}

/**
 * highlight.js output is only `<span class="hljs-…">`, `</span>` and escaped text, so it is
 * read with a small tokenizer, not an HTML parser; a scope opened on one line goes on in
 * the next.
 */
function htmlToLines(html: string): Span[][] {
  const lines: Span[][] = [[]];
  const stack: (SpanStyle | undefined)[] = [];
  const current = (): SpanStyle | undefined => {
    for (let i = stack.length - 1; i >= 0; i--) if (stack[i]) return stack[i];
    return undefined;
  };
  for (const m of html.matchAll(/<span class="([^"]*)">|<\/span>|[^<]+/g)) {
    if (m[1] !== undefined) {
      const scope = m[1].split(' ')[0]!.replace(/^hljs-/, '');
      stack.push(SCOPE[scope]);
    } else if (m[0] === '</span>') stack.pop();
    else {
      const parts = decodeEntities(m[0]).split('\n');
      parts.forEach((text, i) => {
        if (i > 0) lines.push([]);
        if (text) lines[lines.length - 1]!.push({ text, style: current() });
      });
    }
  }
  return lines;
}
