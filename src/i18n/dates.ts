/**
 * Dates and times as the UI's language writes them, in local time: "2 Dec 2026, 09:05" in
 * English, "2026年12月2日 09:05" in Chinese. Not the system locale's default, which gave
 * US dates ("12/2/2026, 9:05:00 AM") on a Chinese screen.
 */
import type { Lang } from './messages.js';

const FORMATS: Record<Lang, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' }),
  zh: new Intl.DateTimeFormat('zh-CN', { dateStyle: 'long', timeStyle: 'short', hourCycle: 'h23' }),
};

/** `at` (epoch ms) as a date and time in `lang`. */
export function formatDateTime(at: number, lang: Lang): string {
  return FORMATS[lang].format(new Date(at));
}
