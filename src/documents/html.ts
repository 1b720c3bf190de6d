/**
 * A local HTML file read as fetchPage reads a web page: the main article when Readability
 * finds one (else the whole cleaned page), as Markdown, with its links. The same code as the
 * web's (html/pageReader.ts), so a saved page and a fetched one read alike.
 */
import { pathToFileURL } from 'node:url';
import { drain } from '../core/steps.js';
import { decodeText } from './encoding.js';
import { capHtmlDepthSteps, MAX_HTML_DEPTH } from './html/htmlDepth.js';
import { readHtml } from './html/pageReader.js';
import { DocumentError, type ExtractedDocument, type ExtractInput } from './types.js';

/** Links listed after the text, as fetchPage lists a page's. */
const MAX_LINKS = 30;

export async function extract(input: ExtractInput): Promise<ExtractedDocument> {
  const decoded = decodeText(input.bytes);
  if (decoded.kind === 'binary') {
    throw new DocumentError('malformed', `${input.name} is not text (${decoded.type}).`);
  }
  // Depth is capped before parsing: parse time grows with the square of the nesting.
  const capped = drain(capHtmlDepthSteps(decoded.text));
  // Relative links resolve against a name, never the machine's real path.
  const base = pathToFileURL(`/${input.name}`);
  const page = readHtml(capped.html, base, 'markdown', MAX_LINKS);
  const notes = capped.flattened
    ? [`The page nests deeper than ${MAX_HTML_DEPTH} levels; the deeper part was flattened.`]
    : [];
  const links = page.links;
  const body = [
    page.body.trim() === '' ? '(no readable text in this page)' : page.body,
    ...(links.length > 0
      ? ['', 'Links:', ...links.map((l, i) => `${i + 1}. ${l.text ? `${l.text} — ` : ''}${l.url}`)]
      : []),
  ].join('\n');
  return {
    kind: 'html',
    label: 'HTML page',
    meta: page.title ? [['Title', page.title]] : [],
    unitName: 'part',
    unitCount: 1,
    units: [{ number: 1, title: page.title || input.name, markdown: body }],
    notes,
  };
}
