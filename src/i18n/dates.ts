/**
 * Dates and times as the UI's language writes them, in local time: "2 Dec 2026, 09:05" in
 * English, "2026年12月2日 09:05" in Chinese. Not the system locale's default, which gave
 * US dates ("12/2/2026, 9:05:00 AM") on a Chinese screen.
 */
import type { Lang } from './messages.js';

const OPTIONS: Record<Lang, [string, Intl.DateTimeFormatOptions]> = {
  en: ['en-GB', { dateStyle: 'medium', timeStyle: 'short' }],
  zh: ['zh-CN', { dateStyle: 'long', timeStyle: 'short', hourCycle: 'h23' }],
};

// Made on first use, not when the module loads: a date format reads ICU's locale, calendar
// and time-zone data, ~6 MB of the `node` binary's pages that an idle screen showing no date
// never needs (bench/README.md, "Idle memory, issue 41").
const formats: Partial<Record<Lang, Intl.DateTimeFormat>> = {};

/** `at` (epoch ms) as a date and time in `lang`. */
export function formatDateTime(at: number, lang: Lang): string {
  const format = (formats[lang] ??= new Intl.DateTimeFormat(...OPTIONS[lang]));
  return format.format(new Date(at));
}
