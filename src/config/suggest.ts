/**
 * "Did you mean" support for unknown keys and enum values: a plain Damerau-Levenshtein
 * distance (adjacent swaps count once, the most common typo) plus a case-insensitive check.
 */

/** Edit distance with insertions, deletions, substitutions and adjacent transpositions. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidates close to `word`, best first. "Close" scales with length so that short
 * keys do not match everything: at most a third of the word's length, at least 1, at most 3.
 */
export function closeMatches(word: string, candidates: readonly string[], limit = 3): string[] {
  const lower = word.toLowerCase();
  const threshold = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  return candidates
    .map((c) => {
      const cl = c.toLowerCase();
      const distance = cl === lower ? 0 : editDistance(lower, cl);
      // A prefix relation ("approve" for "approval") is a strong hint too.
      const prefix = lower.length >= 3 && (cl.startsWith(lower) || lower.startsWith(cl));
      return { c, score: prefix ? Math.min(distance, threshold) : distance };
    })
    .filter((x) => x.score <= threshold)
    .sort((x, y) => x.score - y.score || x.c.localeCompare(y.c))
    .slice(0, limit)
    .map((x) => x.c);
}
