import { editDistance } from '../../core/editDistance.js';
import type { AppInfo } from './types.js';

/** Case- and width-insensitive form of a name, without `.app` / `.exe` / `.desktop`. */
export function normalizeName(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/\.(app|exe|desktop)$/, '');
}

/** Every name an app answers to, normalized. */
function appKeys(app: AppInfo): string[] {
  return [...new Set([app.name, ...app.aliases, ...app.processNames].map(normalizeName))].filter(
    Boolean,
  );
}

type AppLookup =
  | { kind: 'found'; app: AppInfo }
  | { kind: 'ambiguous'; candidates: AppInfo[] }
  | { kind: 'missing'; near: string[] };

/**
 * Finds an app by name: an exact (case-insensitive) match on its name, an alias or its
 * process name wins; otherwise a name that contains the query, if only one app has it.
 */
export function findApp(apps: readonly AppInfo[], query: string): AppLookup {
  const wanted = normalizeName(query);
  const exact = apps.filter((app) => appKeys(app).includes(wanted));
  if (exact.length >= 1) {
    // Several entries with the same name (a user copy over a system one) are one app.
    const byName = exact.filter((app) => normalizeName(app.name) === wanted);
    return { kind: 'found', app: byName[0] ?? exact[0]! };
  }
  if (wanted.length >= 3) {
    const partial = apps.filter((app) => appKeys(app).some((key) => key.includes(wanted)));
    const distinct = dedupeByName(partial);
    if (distinct.length === 1) return { kind: 'found', app: distinct[0]! };
    if (distinct.length > 1) return { kind: 'ambiguous', candidates: distinct.slice(0, 10) };
  }
  return {
    kind: 'missing',
    near: nearNames(
      apps.flatMap((app) => [app.name, ...app.aliases]),
      query,
    ),
  };
}

/** Up to `max` names that look like `query` (edit distance, then shared substrings). */
export function nearNames(names: readonly string[], query: string, max = 5): string[] {
  const wanted = normalizeName(query);
  const scored = new Map<string, number>();
  for (const name of names) {
    const key = normalizeName(name);
    if (key === '') continue;
    const distance = editDistance(key, wanted);
    const related = key.includes(wanted) || (key.length >= 3 && wanted.includes(key));
    const limit = Math.max(2, Math.floor(Math.max(key.length, wanted.length) / 3));
    if (!related && distance > limit) continue;
    const score = related ? Math.min(distance, 1) : distance;
    const previous = scored.get(name);
    if (previous === undefined || score < previous) scored.set(name, score);
  }
  return [...scored.entries()]
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .slice(0, max)
    .map(([name]) => name);
}

function dedupeByName(apps: readonly AppInfo[]): AppInfo[] {
  const seen = new Set<string>();
  return apps.filter((app) => {
    const key = normalizeName(app.name);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
