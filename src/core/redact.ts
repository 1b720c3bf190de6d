/**
 * The one redactor: every place a configured secret (the API key, the search keys) could
 * travel, a tool result, the model's own text, an error message, passes through it.
 *
 * Matching ignores whitespace and line breaks, so a key that a write split over two lines
 * is still caught when it is read back, and any run of {@link MIN_PARTIAL} or more
 * characters of a key is caught too, so a key cut short by truncation cannot leak a prefix.
 * Callers redact before they truncate.
 */
import { gramHashes, isSpaceCode, spacedCandidates } from './grams.js';

/** Shorter strings are too likely to occur by chance to be worth replacing. */
const MIN_SECRET_LENGTH = 8;
/** A piece of a key this long is as good as the key to an attacker who can guess the rest. */
export const MIN_PARTIAL = 12;
/** What a secret is replaced by. */
export const REDACTED = '[redacted secret]';

const SPACE = /[\s\u00a0\u2028\u2029]+/g;

/** The text without whitespace, so a key split over lines is whole again. */
function compact(text: string): string {
  return text.replace(SPACE, '');
}

/** Removes configured secrets from text; build one per set of secrets and reuse it. */
export class Redactor {
  private readonly secrets: readonly string[];
  private readonly partial: Set<number>;

  constructor(secrets: readonly (string | undefined)[]) {
    const clean = secrets
      .map((s) => (s === undefined ? '' : compact(s)))
      .filter((s) => s.length >= MIN_SECRET_LENGTH);
    this.secrets = [...new Set(clean)];
    this.partial = new Set<number>();
    for (const s of this.secrets) for (const h of gramHashes(s, MIN_PARTIAL)) this.partial.add(h);
  }

  /** True when there is nothing to redact (no secret configured). */
  get empty(): boolean {
    return this.secrets.length === 0;
  }

  /** The longest secret, whitespace removed (the stream redactor holds back this much). */
  get longest(): number {
    return this.secrets.reduce((m, s) => Math.max(m, s.length), 0);
  }

  /** `text` with every secret, and every long enough piece of one, replaced. */
  redact(text: string): string {
    const ranges = this.ranges(text);
    if (ranges.length === 0) return text;
    let out = '';
    let prev = 0;
    for (const [a, b] of ranges) {
      out += text.slice(prev, a) + REDACTED;
      prev = b;
    }
    return out + text.slice(prev);
  }

  /** Whether `text` holds a secret or a piece of one. */
  contains(text: string): boolean {
    return this.ranges(text).length > 0;
  }

  /** The merged `[start, end)` spans of `text` that must go, in order. */
  ranges(text: string): [number, number][] {
    if (this.secrets.length === 0 || text.length < MIN_SECRET_LENGTH) return [];
    const hits: [number, number][] = [];
    for (const w of spacedCandidates(text, MIN_PARTIAL, this.partial)) {
      if (this.secrets.some((s) => s.length >= MIN_PARTIAL && s.includes(w.gram))) {
        hits.push([w.start, w.end]);
      }
    }
    for (const s of this.secrets) {
      if (s.length < MIN_PARTIAL) hits.push(...shortMatches(text, s));
    }
    return merge(hits);
  }
}

/** Where a secret shorter than MIN_PARTIAL occurs whole, whitespace between its characters allowed. */
function shortMatches(text: string, secret: string): [number, number][] {
  const out: [number, number][] = [];
  for (let at = text.indexOf(secret[0]!); at !== -1; at = text.indexOf(secret[0]!, at + 1)) {
    let i = at;
    let k = 0;
    while (i < text.length && k < secret.length) {
      if (text[i] === secret[k]) k += 1;
      else if (!isSpaceCode(text.charCodeAt(i))) break;
      i += 1;
    }
    if (k === secret.length) out.push([at, i]);
  }
  return out;
}

/** Sorts and merges overlapping spans. */
function merge(hits: [number, number][]): [number, number][] {
  if (hits.length === 0) return [];
  hits.sort((x, y) => x[0] - y[0]);
  const merged: [number, number][] = [];
  for (const [a, b] of hits) {
    const last = merged[merged.length - 1];
    if (last !== undefined && a <= last[1]) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  return merged;
}

/**
 * Replaces every occurrence of the given secrets in `text` (see {@link Redactor}). For
 * repeated use build a `Redactor` once.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  return new Redactor(secrets).redact(text);
}

/** Room for whitespace a key may be split with, on top of the key's own length. */
const SLACK = 32;

/**
 * Redaction for text that arrives in pieces (the model's streamed reply): a key split over
 * two deltas must be caught too, so the tail that could still be the start of a secret is
 * held back until more text arrives or the stream ends. `push` and `flush` return what is
 * safe to show.
 */
export class StreamRedactor {
  private pending = '';
  private readonly hold: number;

  constructor(private readonly redactor: Redactor) {
    this.hold = redactor.empty ? 0 : redactor.longest + SLACK;
  }

  /** Adds a delta; returns the redacted text that can be shown now (maybe empty). */
  push(delta: string): string {
    if (this.hold === 0) return delta;
    this.pending += delta;
    let cut = this.pending.length - this.hold;
    if (cut <= 0) return '';
    // Never cut through a secret found in the buffer: hold it back whole.
    for (const [a, b] of this.redactor.ranges(this.pending)) {
      if (a < cut && cut < b) cut = a;
    }
    const ready = this.pending.slice(0, cut);
    this.pending = this.pending.slice(cut);
    return this.redactor.redact(ready);
  }

  /** The stream ended: the rest, redacted. */
  flush(): string {
    const rest = this.redactor.redact(this.pending);
    this.pending = '';
    return rest;
  }
}
