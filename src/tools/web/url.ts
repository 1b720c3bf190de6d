import { ToolFailure } from './errors.js';

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/**
 * Parses an address given by the model and accepts only http and https: `file:` would read
 * local files behind the workspace's back, `javascript:` / `data:` carry code or content
 * inline, and `ftp:` and friends are not something fetch or a browser hand-off should do.
 * A bare host such as `example.com/page` is read as https.
 */
export function parseWebUrl(raw: string): URL {
  const text = raw.trim();
  if (text === '')
    throw new ToolFailure('invalid_args', 'The URL is empty: give an http(s) address.');
  if (text.includes('\0')) throw new ToolFailure('invalid_args', 'The URL contains a NUL byte.');
  const hasScheme = SCHEME.test(text) && !/^[^/:]+:\d+(?:[/?#]|$)/.test(text);
  let url: URL;
  try {
    url = new URL(hasScheme ? text : `https://${text}`);
  } catch {
    throw new ToolFailure(
      'invalid_args',
      `"${text}" is not a valid URL: give a full address such as https://example.com/page.`,
    );
  }
  assertWebScheme(url);
  return url;
}

/** Refuses any scheme other than http/https, naming it (also used for each redirect hop). */
export function assertWebScheme(url: URL, via?: string): void {
  if (url.protocol === 'http:' || url.protocol === 'https:') return;
  const scheme = url.protocol.replace(/:$/, '');
  const where = via === undefined ? '' : ` (redirected from ${via})`;
  throw new ToolFailure(
    'invalid_args',
    `Refused "${scheme}:" URL${where}: only http and https addresses can be opened or fetched.`,
  );
}
