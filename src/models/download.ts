/**
 * Downloads a model file into the models folder: resumable, verified, never half-installed.
 *
 * - Bytes go to `<file>.part`. A dropped connection is resumed with an HTTP `Range` request
 *   (a few times in a row, and again on the next run, from what is on disk).
 * - Finished, the file is verified: the size the server announced, the GGUF magic, and the
 *   SHA-256 where the source publishes one (Hugging Face's `X-Linked-Etag`). Only then is it
 *   renamed to its final name. A file that fails verification is deleted, part and all.
 * - It stops at the announced size: more bytes than the smallest size announced (by the
 *   server's headers, or the catalogue with a margin) end it with an error, the part file
 *   deleted; announced or not, it never takes the disk under a free-space reserve
 *   (sizeGuard.ts).
 * - Never throws: every outcome is a result with a message that names the fix.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { parseContentRange, rangedGet, type SourceFacts } from './http.js';
import { createProgressMeter, formatBytes, type DownloadProgress } from './progress.js';
import {
  CATALOGUE_MARGIN,
  DEFAULT_DISK_RESERVE_BYTES,
  createSizeGuard,
  freeBytesOf,
  smallestClaim,
} from './sizeGuard.js';

export interface DownloadRequest {
  url: string;
  /** The models folder (created when missing). */
  dir: string;
  /** The file name inside `dir`. */
  file: string;
  signal?: AbortSignal;
  /** Called as bytes arrive (at most every `progressEveryMs`) and once at the end. */
  onProgress?(p: DownloadProgress): void;
  fetch?: typeof fetch;
  /** Resumes after a dropped connection before giving up; default 4. */
  retries?: number;
  /** Pause before a resume, times the attempt number; default 500 ms. */
  retryDelayMs?: number;
  progressEveryMs?: number;
  /** The catalogue's (rounded) size of the file: more than this plus a margin is refused. */
  catalogueBytes?: number;
  /** Free disk the download leaves at least; default 1 GiB. */
  diskReserveBytes?: number;
  /** Reads the free disk of a folder (tests pass their own); default `fs.statfs`. */
  freeBytes?(dir: string): Promise<number>;
}

type DownloadErrorKind = 'aborted' | 'network' | 'http' | 'verify' | 'disk';

export type DownloadResult =
  | {
      ok: true;
      path: string;
      bytes: number;
      sha256: string;
      /** Whether the source published a SHA-256 that the file matched. */
      checksum: 'verified' | 'unpublished';
      /** The file was already there from an earlier download. */
      existing: boolean;
    }
  | { ok: false; kind: DownloadErrorKind; message: string };

/** One attempt's outcome: done (bytes on disk, facts), or a reason to retry or stop. */
type Attempt =
  | { done: true; total: number | undefined; facts: SourceFacts }
  | { done: false; retry: boolean; kind: DownloadErrorKind; message: string };

const GGUF_MAGIC = Buffer.from('GGUF');

async function sizeOf(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).size;
  } catch {
    return undefined;
  }
}

/** Downloads `req.url` to `<req.dir>/<req.file>`; see the module comment. */
export async function downloadModel(req: DownloadRequest): Promise<DownloadResult> {
  const final = path.join(req.dir, req.file);
  const part = `${final}.part`;
  const existing = await sizeOf(final);
  if (existing !== undefined) {
    return {
      ok: true,
      path: final,
      bytes: existing,
      sha256: '',
      checksum: 'unpublished',
      existing: true,
    };
  }
  try {
    await mkdir(req.dir, { recursive: true });
  } catch (err) {
    return { ok: false, kind: 'disk', message: diskMessage(req.dir, err) };
  }
  const signal = req.signal ?? new AbortController().signal;
  const retries = req.retries ?? 4;
  for (let attempt = 0; ; attempt += 1) {
    const got = await fetchOnce(req, part, signal);
    if (got.done) return verifyAndInstall(part, final, got.total, got.facts);
    if (!got.retry || attempt >= retries || signal.aborted) {
      return { ok: false, kind: signal.aborted ? 'aborted' : got.kind, message: got.message };
    }
    try {
      await delay((req.retryDelayMs ?? 500) * (attempt + 1), undefined, { signal });
    } catch {
      return { ok: false, kind: 'aborted', message: abortedMessage(part) };
    }
  }
}

/** One GET from what is on disk on; appends to the part file. */
async function fetchOnce(
  req: DownloadRequest,
  part: string,
  signal: AbortSignal,
): Promise<Attempt> {
  let have = (await sizeOf(part)) ?? 0;
  let got;
  try {
    got = await rangedGet(req.url, have, signal, req.fetch ?? fetch);
  } catch (err) {
    if (signal.aborted) return stop('aborted', abortedMessage(part));
    return { done: false, retry: true, kind: 'network', message: networkMessage(req.url, err) };
  }
  const { response, facts } = got;
  if (response.status === 416 && have > 0) {
    // The part is already whole (or longer than the file): verification decides.
    await response.body?.cancel();
    return { done: true, total: facts.size, facts };
  }
  if (response.status !== 200 && response.status !== 206) {
    await response.body?.cancel();
    return stop(
      'http',
      `${req.url} answered HTTP ${response.status}; check the address, or set COGITO_MODELS_URL to a mirror that serves the file.`,
    );
  }
  const range =
    response.status === 206 ? parseContentRange(response.headers.get('content-range')) : undefined;
  if (!range || range.start !== have) have = 0; // A full response (200): start over.
  const length = Number(response.headers.get('content-length'));
  const fromLength = Number.isSafeInteger(length) && length > 0 ? have + length : undefined;
  const total = range?.total ?? facts.size ?? fromLength;
  // The body may not be longer than the smallest size anyone announced for the file.
  const cap = smallestClaim([
    { bytes: fromLength, by: 'Content-Length' },
    { bytes: range?.total, by: 'the Content-Range total' },
    { bytes: facts.size, by: 'X-Linked-Size' },
    {
      bytes: req.catalogueBytes && Math.ceil(req.catalogueBytes * CATALOGUE_MARGIN),
      by: "the catalogue's size with a 10 % margin",
    },
  ]);
  return writeBody(req, response, { part, have, total, cap }, facts, signal);
}

function stop(kind: DownloadErrorKind, message: string): Attempt {
  return { done: false, retry: false, kind, message };
}

/** Where one response's body goes, and the sizes it is held to. */
interface BodyTarget {
  part: string;
  /** Bytes already in the part file. */
  have: number;
  total: number | undefined;
  cap: { bytes: number; by: string } | undefined;
}

async function writeBody(
  req: DownloadRequest,
  response: Response,
  { part, have, total, cap }: BodyTarget,
  facts: SourceFacts,
  signal: AbortSignal,
): Promise<Attempt> {
  const meter = createProgressMeter(have);
  const guard = createSizeGuard({
    url: req.url,
    dir: path.dirname(part),
    cap,
    reserveBytes: req.diskReserveBytes ?? DEFAULT_DISK_RESERVE_BYTES,
    freeBytes: req.freeBytes ?? freeBytesOf,
  });
  let stopped: { kind: DownloadErrorKind; message: string } | undefined;
  const every = req.progressEveryMs ?? 100;
  let received = have;
  let lastReport = 0;
  let handle;
  try {
    handle = await open(part, have > 0 ? 'a' : 'w');
  } catch (err) {
    await response.body?.cancel();
    return stop('disk', diskMessage(path.dirname(part), err));
  }
  try {
    if (!response.body) throw new Error('the response has no body');
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      stopped = await guard(received, chunk.byteLength);
      if (stopped) break; // leaving the loop cancels the body: the connection closes
      await handle.write(chunk);
      received += chunk.byteLength;
      if (Date.now() - lastReport >= every) {
        lastReport = Date.now();
        req.onProgress?.(meter(received, total));
      }
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC') return stop('disk', diskMessage(path.dirname(part), err));
    if (signal.aborted) return stop('aborted', abortedMessage(part));
    return { done: false, retry: true, kind: 'network', message: networkMessage(req.url, err) };
  } finally {
    await handle.close().catch(() => undefined);
    req.onProgress?.(meter(received, total));
  }
  if (stopped) {
    await rm(part, { force: true });
    return stop(stopped.kind, stopped.message);
  }
  return { done: true, total, facts };
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function startsWithMagic(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    return head.equals(GGUF_MAGIC);
  } finally {
    await handle.close();
  }
}

/** Checks size, magic and checksum; renames the part into place, or deletes it. */
async function verifyAndInstall(
  part: string,
  final: string,
  total: number | undefined,
  facts: SourceFacts,
): Promise<DownloadResult> {
  const bytes = (await sizeOf(part)) ?? 0;
  const reject = async (message: string): Promise<DownloadResult> => {
    await rm(part, { force: true });
    return { ok: false, kind: 'verify', message };
  };
  const expected = facts.size ?? total;
  if (expected !== undefined && bytes !== expected) {
    return reject(
      `the download has ${formatBytes(bytes)} but the source announced ${formatBytes(expected)}; it was deleted, run the download again.`,
    );
  }
  if (!(await startsWithMagic(part))) {
    return reject(
      'the downloaded file is not a GGUF model (it does not start with "GGUF"); it was deleted. Check the address: it must link to the .gguf file itself.',
    );
  }
  const sha256 = await sha256Of(part);
  if (facts.sha256 && facts.sha256 !== sha256) {
    return reject(
      `the downloaded file's SHA-256 is ${sha256}, but the source publishes ${facts.sha256}; it was deleted. Run the download again; if it fails again, the source or a proxy is serving a different file.`,
    );
  }
  try {
    await rename(part, final);
  } catch (err) {
    return { ok: false, kind: 'disk', message: diskMessage(path.dirname(final), err) };
  }
  return {
    ok: true,
    path: final,
    bytes,
    sha256,
    checksum: facts.sha256 ? 'verified' : 'unpublished',
    existing: false,
  };
}

function abortedMessage(part: string): string {
  return `download cancelled; the part already fetched stays in ${part} and the next download resumes from it.`;
}

function networkMessage(url: string, err: unknown): string {
  const reason =
    err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
  return `the connection to ${new URL(url).host} failed (${reason}); check the network and run the download again: it resumes where it stopped.`;
}

function diskMessage(dir: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code ?? String(err);
  return code === 'ENOSPC'
    ? `the disk holding ${dir} is full; free some space and run the download again (it resumes).`
    : `cannot write in ${dir} (${code}); give your user write permission there, or choose another home with --home.`;
}
