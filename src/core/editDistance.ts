/**
 * The one edit distance in Cogito, behind every "did you mean": unknown config keys and
 * values, unknown tool names, app names. It counts insertions, deletions, substitutions and
 * swaps of two adjacent characters (the most common typo) as one edit each: the optimal
 * string alignment variant of Damerau-Levenshtein. Case matters; callers that want it
 * case-insensitive lower-case both sides first.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  // Three rolling rows (two back for a swap) instead of the full table: names are short,
  // but this runs over every candidate on every typo.
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, before[j - 2]! + 1);
      }
      row.push(best);
    }
    before = prev;
    prev = row;
  }
  return prev[b.length]!;
}
