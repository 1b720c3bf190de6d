/**
 * Every decompression in the archive, e-book and mail readers goes through here, so a zip
 * bomb (a few kilobytes that inflate to gigabytes) is stopped while it inflates, never after:
 * Node's zlib is given `maxOutputLength`, the most the document's {@link InflateBudget} has
 * left, and stops there (it never allocates more). Native zlib rather than a JavaScript
 * inflater: it is many times faster, and it is part of Node.
 */
import zlib from 'node:zlib';
import { DocumentError } from './types.js';

/** What is left of a document's `maxInflatedBytes`, shared by all of its members. */
export class InflateBudget {
  private used = 0;

  constructor(
    /** The file the budget belongs to, for messages. */
    readonly file: string,
    readonly limit: number,
  ) {}

  get remaining(): number {
    return Math.max(0, this.limit - this.used);
  }

  /** Counts `n` more inflated bytes. */
  spend(n: number): void {
    this.used += n;
  }

  /** The error for `what` inflating past what is left. */
  exceeded(what: string): DocumentError {
    return new DocumentError(
      'too_large',
      `"${this.file}": ${what} inflates past the limit of ${formatSize(this.limit)} ` +
        '(a zip bomb or other compression bomb, or simply too big to read whole). Nothing more was inflated.',
    );
  }
}

/**
 * Inflates raw DEFLATE data (a ZIP member). `expected` is the size the archive states: output
 * beyond it is refused as malformed, whatever the budget, since a header that lies is how a
 * bomb hides from a reader that trusts it.
 */
export function inflateRaw(
  data: Uint8Array,
  budget: InflateBudget,
  what: string,
  expected: number,
): Uint8Array {
  const lies = expected < budget.remaining;
  const cap = Math.min(expected, budget.remaining);
  return run(() => zlib.inflateRawSync(data, { maxOutputLength: Math.max(1, cap) }), {
    budget,
    what,
    cap,
    tooBig: lies
      ? new DocumentError(
          'malformed',
          `"${budget.file}": ${what} inflates to more than the ${formatSize(expected)} its header states; the archive is damaged or built to deceive, and was not read further.`,
        )
      : budget.exceeded(what),
  });
}

/** Decompresses gzip data (one or more members), counted against `budget`. */
export function gunzip(data: Uint8Array, budget: InflateBudget, what: string): Uint8Array {
  const cap = budget.remaining;
  return run(() => zlib.gunzipSync(data, { maxOutputLength: Math.max(1, cap) }), {
    budget,
    what,
    cap,
    tooBig: budget.exceeded(what),
  });
}

/** Runs one inflation: past `cap` is `tooBig`; zlib's own errors (a corrupt stream) are `malformed`. */
function run(
  inflate: () => Buffer,
  o: { budget: InflateBudget; what: string; cap: number; tooBig: DocumentError },
): Uint8Array {
  let out: Buffer;
  try {
    out = inflate();
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw o.tooBig;
    const reason = e instanceof Error ? e.message : String(e);
    throw new DocumentError(
      'malformed',
      `"${o.budget.file}": ${o.what} is corrupt and cannot be decompressed (${reason}).`,
    );
  }
  if (out.length > o.cap) throw o.tooBig; // a cap of 0 was asked as 1
  o.budget.spend(out.length);
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

/** `512 B`, `12 KB`, `3.4 MB`, `1.20 GB`: sizes as the model and `ls` show them. */
export function formatSize(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${Math.round(n / 1e3)} KB`;
  return `${n} B`;
}
