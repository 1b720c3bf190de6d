/**
 * "Did you mean" support for unknown keys and enum values: the shared edit distance (adjacent
 * swaps count once) plus a case-insensitive check and a prefix hint.
 */
import { editDistance } from '../core/editDistance.js';

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
