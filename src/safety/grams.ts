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
