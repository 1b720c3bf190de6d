import type { Activity } from '../api/activity.js';
import { t, type Lang } from '../i18n/messages.js';

/**
 * A moment in the user's local time: `09:12` today, `2026-12-03 09:12` on another day (the
 * status of an agent left running overnight).
 */
export function localTime(at: number, now: number = Date.now()): string {
  const d = new Date(at);
  const pad = (n: number): string => String(n).padStart(2, '0');
  const hm = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  if (d.toDateString() === new Date(now).toDateString()) return hm;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${hm}`;
}

/**
 * What the agent is doing, in one line of words: `working`, `resting, next look at 14:05`,
 * `resting, wakes on a change`, `waiting for your answer since 09:12 · watching for changes`,
 * `paused since 10:00 · <reason>`. The open question is named when it is not the waiting
 * itself. Used by `cogito status` and the away digest (the status bar has its own, shorter).
 */
export function activityText(a: Activity, lang: Lang, now: number = Date.now()): string {
  const time = (at: number): string => localTime(at, now);
  const parts: string[] = [];
  switch (a.state) {
    case 'working':
      parts.push(t(lang, 'activity.working'));
      break;
    case 'resting':
      parts.push(
        a.nextLookAt !== undefined
          ? t(lang, 'activity.restingAt', { time: time(a.nextLookAt) })
          : t(lang, 'activity.restingOnChange'),
      );
      break;
    case 'waiting':
      parts.push(
        t(lang, a.question ? 'activity.waitingAnswer' : 'activity.waitingYou', {
          time: time(a.since),
        }),
      );
      if (a.watchFrom !== undefined)
        parts.push(
          a.watchFrom <= now
            ? t(lang, 'activity.watching')
            : t(lang, 'activity.watchFrom', { time: time(a.watchFrom) }),
        );
      return parts.join(' · ');
    case 'paused':
      parts.push(t(lang, 'activity.paused', { time: time(a.since) }));
      if (a.reason) parts.push(a.reason);
      break;
    case 'approval':
      parts.push(t(lang, 'activity.approval', { time: time(a.since) }));
      break;
  }
  if (a.question) parts.push(t(lang, 'activity.stillOpen', { time: time(a.question.at) }));
  return parts.join(' · ');
}
