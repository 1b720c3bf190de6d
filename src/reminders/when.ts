/** A parsed time, or the reason it could not be read and how to write it. */
export type WhenResult = { ok: true; at: number } | { ok: false; error: string };

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Reads when a reminder is due: a local date-time (`2026-12-02T09:00`, `2026-12-02 09:00`,
 * seconds optional, a `Z` or offset honoured), a time today or tomorrow (`09:00`), or a
 * delay from now (`90s`, `10m`, `2h`, `1d`, optionally written `in 10m`).
 */
export function parseWhen(text: string, now: number): WhenResult {
  const s = text.trim();
  const rel = /^(?:in\s+)?(\d+(?:\.\d+)?)\s*([smhd])$/i.exec(s);
  if (rel)
    return { ok: true, at: now + Math.round(Number(rel[1]) * UNIT_MS[rel[2]!.toLowerCase()]!) };
  const clock = /^(\d{1,2}):(\d{2})$/.exec(s);
  if (clock) {
    const d = new Date(now);
    d.setHours(Number(clock[1]), Number(clock[2]), 0, 0);
    if (d.getTime() <= now) d.setDate(d.getDate() + 1);
    return valid(d.getTime(), s);
  }
  if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?$/i.test(s)) {
    return valid(new Date(s.replace(' ', 'T')).getTime(), s);
  }
  return {
    ok: false,
    error: `cannot read the time "${s.slice(0, 40)}": write a date and time like 2026-12-02T09:00, a time like 09:00, or a delay like 10m, 2h, 1d`,
  };
}

function valid(at: number, s: string): WhenResult {
  return Number.isFinite(at)
    ? { ok: true, at }
    : { ok: false, error: `"${s}" is not a real date: check the month, day and hour` };
}
