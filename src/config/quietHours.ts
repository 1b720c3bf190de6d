/**
 * Quiet hours: a daily span of local time, written "22:00-07:00", in which no notification is
 * sent. A span whose end is before its start runs over midnight; equal ends mean no quiet
 * hours at all (a span of every hour would turn notifications off by another name).
 */
export interface QuietHours {
  /** Minutes after local midnight the span starts (inclusive) and ends (exclusive). */
  from: number;
  to: number;
}

const SPAN = /^(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})$/;

/** The span a setting names, or undefined when it is not "HH:MM-HH:MM" with real times. */
export function parseQuietHours(text: string): QuietHours | undefined {
  const m = SPAN.exec(text.trim());
  if (!m) return undefined;
  const [h1, m1, h2, m2] = m.slice(1).map(Number) as [number, number, number, number];
  if (h1 > 23 || h2 > 23 || m1 > 59 || m2 > 59) return undefined;
  return { from: h1 * 60 + m1, to: h2 * 60 + m2 };
}

/** Whether `at` (local time) falls inside the span. */
export function isQuiet(span: QuietHours, at: Date): boolean {
  const minute = at.getHours() * 60 + at.getMinutes();
  if (span.from === span.to) return false;
  if (span.from < span.to) return minute >= span.from && minute < span.to;
  // Over midnight: from the start to midnight, and from midnight to the end.
  return minute >= span.from || minute < span.to;
}
