/**
 * Fixed-length substring ("gram") matching by rolling hash, shared by the redactor and the
 * read index. Both ask the same question, "does any run of `n` characters of this text also
 * occur in that one?", and both must answer it in time linear in the text, whatever its
 * size: a substring allocated per position would cost seconds on a 2 MB result.
 */

const BASE = 0x01000193;

/** The multiplier that removes the character leaving a window of `n`: BASE^(n-1) mod 2^32. */
function dropFactor(n: number): number {
  let f = 1;
  for (let i = 1; i < n; i++) f = Math.imul(f, BASE);
  return f;
}

/**
 * Calls `visit(start, hash)` for every window of `n` characters of `text`, left to right.
 * Returning `true` from `visit` stops the scan.
 */
export function forEachGram(
  text: string,
  n: number,
  visit: (start: number, hash: number) => boolean | void,
): void {
  if (n <= 0 || text.length < n) return;
  const drop = dropFactor(n);
  let h = 0;
  for (let i = 0; i < n; i++) h = (Math.imul(h, BASE) + text.charCodeAt(i)) | 0;
  if (visit(0, h) === true) return;
  for (let i = n; i < text.length; i++) {
    h = (h - Math.imul(text.charCodeAt(i - n), drop)) | 0;
    h = (Math.imul(h, BASE) + text.charCodeAt(i)) | 0;
    if (visit(i - n + 1, h) === true) return;
  }
}

/** The hashes of every `n`-character window of `text`. */
export function gramHashes(text: string, n: number): Set<number> {
  const out = new Set<number>();
  forEachGram(text, n, (_, h) => {
    out.add(h);
  });
  return out;
}

/** Whitespace for the purpose of matching across line breaks. */
export function isSpaceCode(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0x2028 || c === 0x2029;
}

/** A window of `n` non-space characters found by {@link spacedCandidates}. */
interface SpacedWindow {
  /** Where its first character is in the text. */
  start: number;
  /** Just past its last character. */
  end: number;
  /** Its characters without the whitespace between them. */
  gram: string;
}

/**
 * The windows of `n` non-whitespace characters of `text` (whitespace between them skipped)
 * whose hash is in `hashes`: candidates the caller verifies. One pass, no copy of the text,
 * so it is cheap enough to run over every tool result.
 */
export function spacedCandidates(
  text: string,
  n: number,
  hashes: ReadonlySet<number>,
): SpacedWindow[] {
  const out: SpacedWindow[] = [];
  if (n <= 0 || hashes.size === 0) return out;
  const drop = dropFactor(n);
  const codes = new Array<number>(n).fill(0);
  const where = new Array<number>(n).fill(0);
  let count = 0;
  let h = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpaceCode(c)) continue;
    const slot = count % n;
    if (count >= n) h = (h - Math.imul(codes[slot]!, drop)) | 0;
    h = (Math.imul(h, BASE) + c) | 0;
    codes[slot] = c;
    where[slot] = i;
    count += 1;
    if (count >= n && hashes.has(h)) {
      const first = count % n;
      let gram = '';
      for (let k = 0; k < n; k++) gram += String.fromCharCode(codes[(first + k) % n]!);
      out.push({ start: where[first]!, end: i + 1, gram });
    }
  }
  return out;
}
