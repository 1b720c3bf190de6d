import { ok } from '../types.js';
import type { Tool } from '../types.js';
import { decodeBody } from './charset.js';
import { classifyMediaType, mediaType, sniffContent } from './content.js';
import type { ContentKind } from './content.js';
import type { FetchSettings, FetchLimits } from './config.js';
import { resolveFetchConfig } from './config.js';
import { guard, optionalStringArg, stringArg, ToolFailure } from './errors.js';
import type { PageLink } from '../../documents/html/htmlToText.js';
import { discard, formatBytes, readCapped, requestFollowing, withDeadline } from './http.js';
import type { FetchLike } from './http.js';
import { loadPageReader } from './lazy.js';
import { capHtmlDepthSteps, MAX_HTML_DEPTH } from '../../documents/html/htmlDepth.js';
import { drainYielding } from '../../core/steps.js';
import type { PageMode } from '../../documents/html/pageReader.js';
import { parseWebUrl } from './url.js';

/** What fetchPage read, before rendering for the model. */
interface FetchedPage {
  url: string;
  requestedUrl: string;
  contentType: string;
  kind: Exclude<ContentKind, 'unsupported'>;
  title: string;
  body: string;
  links: PageLink[];
  /** The body was longer than the byte cap and was cut there. */
  truncated: boolean;
  /** The page nested deeper than MAX_HTML_DEPTH and was flattened before parsing. */
  flattened?: boolean;
  /** Bytes read (at most the cap). */
  bytes: number;
  encoding: string;
}

interface Raw {
  url: URL;
  contentType: string;
  kind: ContentKind;
  bytes: Uint8Array;
  truncated: boolean;
}

/**
 * Fetches a page with every limit applied: http(s) only (each redirect hop re-checked),
 * at most `maxRedirects` hops, one deadline for the whole exchange, the body cut at
 * `maxBytes`, and non-text content refused before its body is downloaded.
 */
async function fetchPage(
  rawUrl: string,
  mode: PageMode,
  options: { fetch: FetchLike; signal: AbortSignal; limits?: FetchSettings },
): Promise<FetchedPage> {
  const limits = resolveFetchConfig(options.limits);
  const start = parseWebUrl(rawUrl);
  const raw = await withDeadline(
    options.signal,
    limits.timeoutMs,
    `fetching ${start.href}`,
    (signal) => download(start, limits, options.fetch, signal),
  );
  const kind =
    raw.kind === 'html' || raw.kind === 'json' || raw.kind === 'text' ? raw.kind : undefined;
  if (kind === undefined) {
    throw refusal(raw.url, mediaType(raw.contentType));
  }
  const decoded = decodeBody(raw.bytes, raw.contentType, kind === 'html');
  const common = {
    url: raw.url.href,
    requestedUrl: start.href,
    contentType: raw.contentType || 'unknown',
    kind,
    truncated: raw.truncated,
    bytes: raw.bytes.byteLength,
    encoding: decoded.encoding,
  };
  if (kind === 'html') {
    const { readHtml } = await loadPageReader();
    // Depth is capped before parsing: parse time grows with the square of the nesting.
    const capped = await drainYielding(capHtmlDepthSteps(decoded.text), options.signal);
    if (capped === undefined) {
      throw new ToolFailure(
        'aborted',
        `Stopped reading ${raw.url.href}: the turn was interrupted.`,
      );
    }
    const page = readHtml(capped.html, raw.url, mode, limits.maxLinks);
    return { ...common, ...page, ...(capped.flattened ? { flattened: true } : {}) };
  }
  return {
    ...common,
    title: '',
    body: kind === 'json' && !raw.truncated ? prettyJson(decoded.text) : decoded.text,
    links: [],
  };
}

async function download(
  start: URL,
  limits: Required<FetchLimits>,
  fetch: FetchLike,
  signal: AbortSignal,
): Promise<Raw> {
  const { response, url } = await requestFollowing(start, {
    fetch,
    signal,
    maxRedirects: limits.maxRedirects,
    headers: {
      accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5',
    },
  });
  if (response.status < 200 || response.status > 299) {
    await discard(response);
    // The reason phrase is the server's own text: it goes to the model as data, apart.
    const reason = reasonPhrase(response.statusText);
    if (response.status === 404 || response.status === 410) {
      throw new ToolFailure(
        'not_found',
        `HTTP ${response.status}: there is no page at ${url.href}.`,
        reason,
      );
    }
    throw new ToolFailure('network', `HTTP ${response.status} from ${url.href}.`, reason);
  }
  const contentType = response.headers.get('content-type') ?? '';
  const declared = classifyMediaType(mediaType(contentType));
  if (declared === 'unsupported') {
    await discard(response);
    throw refusal(url, mediaType(contentType));
  }
  const { bytes, truncated } = await readCapped(response, limits.maxBytes);
  return {
    url,
    contentType,
    kind: declared === 'unknown' ? sniffContent(bytes) : declared,
    bytes,
    truncated,
  };
}

/** A media type as RFC 6838 spells one; anything else the server sent is quoted as data. */
const PLAIN_MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

function refusal(url: URL, type: string): ToolFailure {
  const plain = type === '' || PLAIN_MEDIA_TYPE.test(type);
  const what =
    type === ''
      ? 'binary data (no Content-Type)'
      : plain
        ? type
        : 'of a type it names in words of its own';
  return new ToolFailure(
    'unsupported',
    `${url.href} is ${what}, not a web page or text: fetchPage reads HTML, plain text and JSON only. Use browse(url) to open it in the browser.`,
    plain ? undefined : `Content-Type: ${type.slice(0, 200)}`,
  );
}

/** The server's reason phrase as quoted data, or undefined when it sent none. */
function reasonPhrase(statusText: string): string | undefined {
  const text = statusText.trim();
  return text === '' ? undefined : `reason phrase: ${text.slice(0, 300)}`;
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Renders a fetched page for the model: header lines, the text, then the links. */
function renderPage(page: FetchedPage, maxBytes: number): string {
  const lines: string[] = [];
  if (page.title) lines.push(`Title: ${page.title}`);
  lines.push(`URL: ${page.url}`);
  if (page.url !== page.requestedUrl) lines.push(`(redirected from ${page.requestedUrl})`);
  if (page.kind !== 'html') lines.push(`Content-Type: ${page.contentType}`);
  if (page.truncated) {
    lines.push(`Note: the page was cut at ${formatBytes(maxBytes)}: only its beginning was read.`);
  }
  if (page.flattened === true) {
    lines.push(
      `Note: the page nests deeper than ${MAX_HTML_DEPTH} levels; the deeper part was flattened.`,
    );
  }
  lines.push('');
  lines.push(
    page.body.trim() === ''
      ? '(no readable text: the page may need JavaScript; try browse(url))'
      : page.body,
  );
  if (page.links.length > 0) {
    lines.push('', 'Links:');
    page.links.forEach((link, index) =>
      lines.push(`${index + 1}. ${link.text ? `${link.text} — ` : ''}${link.url}`),
    );
  }
  return lines.join('\n');
}

/** `fetchPage(url, mode?)`: reads a web page as text (or Markdown) with its links. */
export function createFetchPageTool(limits: FetchSettings, fetch: FetchLike): Tool {
  const resolved = resolveFetchConfig(limits);
  return {
    name: 'fetchPage',
    kind: 'network',
    untrustedOutput: true,
    description: `Downloads an http(s) page and returns its readable text and up to ${resolved.maxLinks} links; plain text and JSON are returned as they are.`,
    params: [
      { name: 'url', type: 'string', description: 'an http or https address' },
      {
        name: 'mode',
        type: 'string',
        optional: true,
        description: '"text" (default) or "markdown"',
      },
    ],
    run: (args, ctx) =>
      guard(async () => {
        const url = stringArg(args, 0, 'url');
        const mode = parseMode(optionalStringArg(args, 1, 'mode'));
        const page = await fetchPage(url, mode, { fetch, signal: ctx.signal, limits });
        const size = `${formatBytes(page.bytes)}${page.truncated ? ', cut' : ''}`;
        return ok(renderPage(page, resolved.maxBytes), `${page.title || page.url} (${size})`);
      }),
  };
}

function parseMode(mode: string | undefined): PageMode {
  const value = (mode ?? 'text').trim().toLowerCase();
  if (value === '' || value === 'text') return 'text';
  if (value === 'markdown' || value === 'md') return 'markdown';
  throw new ToolFailure('invalid_args', `mode "${mode}" is not known: use "text" or "markdown".`);
}
