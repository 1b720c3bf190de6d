/**
 * What fetchPage does with a response, decided from its Content-Type (and, when the
 * server sends none, from the first bytes).
 */
export type ContentKind = 'html' | 'text' | 'json' | 'unsupported';

/** The media type without parameters, lower-cased (`text/html`), or '' when absent. */
export function mediaType(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Classifies a declared media type; '' means "not declared, sniff the body". */
export function classifyMediaType(type: string): ContentKind | 'unknown' {
  if (type === '') return 'unknown';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type.startsWith('text/')) return 'text';
  if (
    type === 'application/xml' ||
    type.endsWith('+xml') ||
    type === 'application/javascript' ||
    type === 'application/x-javascript' ||
    type === 'application/ecmascript' ||
    type === 'application/x-ndjson' ||
    type === 'application/yaml' ||
    type === 'application/x-yaml' ||
    type === 'application/toml'
  ) {
    return 'text';
  }
  return 'unsupported';
}

/** For an undeclared type: NUL bytes mean binary, a leading `<` means markup, else text. */
export function sniffContent(bytes: Uint8Array): ContentKind {
  const head = bytes.subarray(0, 1024);
  if (head.includes(0)) return 'unsupported';
  const start = Buffer.from(head).toString('latin1').trimStart().toLowerCase();
  if (
    start.startsWith('<!doctype html') ||
    start.startsWith('<html') ||
    /^<(head|body|meta|title|div|p)\b/.test(start)
  ) {
    return 'html';
  }
  if (start.startsWith('{') || start.startsWith('[')) return 'json';
  return 'text';
}
