/**
 * What stops a download that does not end: a server may announce 1 KB and stream gigabytes,
 * or announce nothing at all. Every byte is checked against the smallest size anyone
 * announced for the file (Content-Length, the Content-Range total, X-Linked-Size, the
 * catalogue's size with a margin), and, announced or not, against the free disk: a download
 * never takes the disk holding the models folder under a reserve.
 */
import { statfs } from 'node:fs/promises';
import { formatBytes } from './progress.js';

/** The free disk a download leaves, by default. */
export const DEFAULT_DISK_RESERVE_BYTES = 1024 ** 3;
/** How often the free disk is read again while bytes arrive (it is also estimated between). */
const RECHECK_EVERY_BYTES = 16 * 1024 ** 2;
/** The catalogue's sizes are rounded: a real file may be this much larger. */
export const CATALOGUE_MARGIN = 1.1;

/** Bytes free for this user on the disk holding `dir`. */
export async function freeBytesOf(dir: string): Promise<number> {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
}

/** One size claim about the whole file, and who made it (for the error message). */
interface SizeClaim {
  bytes: number | undefined;
  by: string;
}

/** The smallest claim that gives a size, or undefined when nobody announced one. */
export function smallestClaim(
  claims: readonly SizeClaim[],
): { bytes: number; by: string } | undefined {
  let best: { bytes: number; by: string } | undefined;
  for (const c of claims) {
    if (c.bytes === undefined || !Number.isSafeInteger(c.bytes) || c.bytes <= 0) continue;
    if (best === undefined || c.bytes < best.bytes) best = { bytes: c.bytes, by: c.by };
  }
  return best;
}

interface GuardOptions {
  url: string;
  dir: string;
  /** The most the whole file may have, and who said so; undefined: nobody announced a size. */
  cap: { bytes: number; by: string } | undefined;
  reserveBytes: number;
  freeBytes(dir: string): Promise<number>;
}

/** Why the guard stopped a download (the part file is then deleted). */
interface GuardStop {
  kind: 'verify' | 'disk';
  message: string;
}

/**
 * A checker for one response body: `check(received, next)` before `next` bytes are written
 * on top of `received`, undefined to go on or the reason to stop.
 */
export function createSizeGuard(
  o: GuardOptions,
): (received: number, next: number) => Promise<GuardStop | undefined> {
  let known: number | undefined; // free bytes at the last reading
  let since = 0; // bytes written since that reading
  return async (received, next) => {
    if (o.cap !== undefined && received + next > o.cap.bytes) {
      return {
        kind: 'verify',
        message: `${new URL(o.url).host} announced ${formatBytes(o.cap.bytes)} (${o.cap.by}) but sent more; the download was stopped at ${formatBytes(received + next)} and its partial file deleted. The source or a proxy is broken or hostile: check the address, or set COGITO_MODELS_URL to a mirror you trust.`,
      };
    }
    if (
      known === undefined ||
      since + next >= RECHECK_EVERY_BYTES ||
      known - since - next < o.reserveBytes
    ) {
      known = await o.freeBytes(o.dir).catch(() => Number.POSITIVE_INFINITY);
      since = 0;
    }
    if (known - since - next < o.reserveBytes) {
      const announced =
        o.cap === undefined ? 'no size was announced' : `${formatBytes(o.cap.bytes)} was announced`;
      return {
        kind: 'disk',
        message: `the download was stopped at ${formatBytes(received)} before the disk holding ${o.dir} dropped under its reserve of ${formatBytes(o.reserveBytes)} free (${announced}); its partial file was deleted. Free some space, or download a smaller model.`,
      };
    }
    since += next;
    return undefined;
  };
}
