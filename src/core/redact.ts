/**
 * The one redactor: every place a configured secret (the API key, the search keys) could
 * travel, a tool result, the model's own text, an error message, passes through it.
 *
 * Matching ignores whitespace and line breaks, so a key that a write split over two lines
 * is still caught when it is read back, and any run of {@link MIN_PARTIAL} or more
 * characters of a key is caught too, so a key cut short by truncation cannot leak a prefix.
 * Callers redact before they truncate.
 */
import { forEachGram, gramHashes } from '../safety/grams.js';

/** Shorter strings are too likely to occur by chance to be worth replacing. */
const MIN_SECRET_LENGTH = 8;
/** A piece of a key this long is as good as the key to an attacker who can guess the rest. */
export const MIN_PARTIAL = 12;
/** What a secret is replaced by. */
export const REDACTED = '[redacted secret]';

const isSpace = (c: number): boolean =>
  c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0x2028 || c === 0x2029;

interface Compact {
  /** The text without whitespace. */
  text: string;
  /** `index[i]` is where `text[i]` sits in the original. */
  index: number[];
}

function compact(text: string): Compact {
  let out = '';
  const index: number[] = [];
  let runStart = 0;
  for (let i = 0; i < text.length; i++) {
    if (!isSpace(text.charCodeAt(i))) {
      index.push(i);
      continue;
    }
    out += text.slice(runStart, i);
    runStart = i + 1;
  }
  out += text.slice(runStart);
  return { text: out, index };
}

/** Removes configured secrets from text; build one per set of secrets and reuse it. */
export class Redactor {
  private readonly secrets: readonly string[];
  private readonly partial: Set<number>;

  constructor(secrets: readonly (string | undefined)[]) {
    const clean = secrets
      .map((s) => (s === undefined ? '' : compact(s).text))
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
    const c = compact(text);
    const hits: [number, number][] = [];
    for (const s of this.secrets) {
      if (s.length >= MIN_PARTIAL) continue;
      for (let at = c.text.indexOf(s); at !== -1; at = c.text.indexOf(s, at + 1)) {
        hits.push([at, at + s.length]);
      }
    }
    forEachGram(c.text, MIN_PARTIAL, (start, h) => {
      if (!this.partial.has(h)) return;
      const gram = c.text.slice(start, start + MIN_PARTIAL);
      if (this.secrets.some((s) => s.includes(gram))) hits.push([start, start + MIN_PARTIAL]);
    });
    return mergeToOriginal(hits, c.index);
  }
}

/** Sorts and merges spans of the compacted text and maps them back to the original. */
function mergeToOriginal(hits: [number, number][], index: readonly number[]): [number, number][] {
  if (hits.length === 0) return [];
  hits.sort((x, y) => x[0] - y[0]);
  const merged: [number, number][] = [];
  for (const [a, b] of hits) {
    const last = merged[merged.length - 1];
    if (last !== undefined && a <= last[1]) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  return merged.map(([a, b]) => [index[a] ?? 0, (index[b - 1] ?? 0) + 1]);
}

/**
 * Replaces every occurrence of the given secrets in `text` (see {@link Redactor}). For
 * repeated use build a `Redactor` once.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  return new Redactor(secrets).redact(text);
}
