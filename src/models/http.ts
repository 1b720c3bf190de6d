/**
 * One ranged GET for a model download, following redirects by hand so that what the first
 * hop says about the file is kept: Hugging Face answers `/resolve/` with a redirect to its
 * CDN carrying `X-Linked-Etag` (the file's SHA-256) and `X-Linked-Size`, which the CDN's
 * own response does not repeat.
 */

/** What the source said about the whole file, from any hop. */
export interface SourceFacts {
  /** SHA-256 the source publishes, lower-case hex. */
  sha256?: string;
  /** Size the source publishes. */
  size?: number;
}

interface RangedResponse {
  response: Response;
  facts: SourceFacts;
}

const MAX_REDIRECTS = 5;
const HEX64 = /^[0-9a-f]{64}$/;

function readFacts(headers: Headers, into: SourceFacts): void {
  const etag = headers.get('x-linked-etag')?.replace(/^W\//, '').replace(/"/g, '').toLowerCase();
  if (etag && HEX64.test(etag)) into.sha256 = etag;
  const size = Number(headers.get('x-linked-size'));
  if (Number.isSafeInteger(size) && size > 0) into.size = size;
}

/** GETs `url` from byte `from` on. Throws what fetch throws (network errors, aborts). */
export async function rangedGet(
  url: string,
  from: number,
  signal: AbortSignal,
  fetchImpl: typeof fetch,
): Promise<RangedResponse> {
  const facts: SourceFacts = {};
  let at = url;
  for (let hop = 0; ; hop += 1) {
    const response = await fetchImpl(at, {
      headers: from > 0 ? { range: `bytes=${from}-` } : {},
      redirect: 'manual',
      signal,
    });
    readFacts(response.headers, facts);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) {
      return { response, facts };
    }
    await response.body?.cancel();
    if (hop >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects from ${url}`);
    at = new URL(location, at).href;
  }
}

/** Where a 206 response starts and the whole file's size, from `Content-Range`. */
export function parseContentRange(
  value: string | null,
): { start: number; total: number | undefined } | undefined {
  const m = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(value?.trim() ?? '');
  if (!m) return undefined;
  return { start: Number(m[1]), total: m[2] === '*' ? undefined : Number(m[2]) };
}
