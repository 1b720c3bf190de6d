/**
 * `fetch.allowHosts` entries: `host` or `host:port`, normalised the way the URL parser
 * normalises hosts, so the config validator and the egress guard agree on what an entry
 * means.
 */

/** The host as URLs spell it after normalisation: lower case, IPv6 without brackets. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

/**
 * Normalises an allowHosts entry the way the URL parser normalises hosts, so `127.1:8888`
 * in the config matches `http://127.0.0.1:8888`. Returns undefined for an entry that is not
 * a `host` or `host:port` (the config validator reports those).
 */
export function parseAllowEntry(entry: string): { host: string; port?: string } | undefined {
  const text = entry.trim();
  if (text === '' || /[/?#@\s]/.test(text) || /^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    return undefined;
  }
  try {
    const url = new URL(`http://${text}`);
    const explicitPort = /:\d+$/.test(text);
    return explicitPort ? { host: bareHost(url), port: url.port || '80' } : { host: bareHost(url) };
  } catch {
    return undefined;
  }
}
