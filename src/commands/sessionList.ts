import type { SessionInfo } from '../history/index.js';
import { t, type Lang } from '../i18n/messages.js';
import { formatDateTime } from '../i18n/dates.js';

function row(s: SessionInfo, current: string, lang: Lang): string {
  const mark = s.id === current ? '*' : ' ';
  const count = t(lang, 'cmd.messages', { count: String(s.messageCount).padStart(5) });
  const title = (s.firstUserLine ?? '').slice(0, 50);
  const base = `${mark} ${s.id}  ${formatDateTime(s.updatedAt, lang)}  ${count}  ${title}`;
  if (s.here) return base;
  const folder =
    s.workspace === undefined
      ? t(lang, 'cmd.sessionNoFolder')
      : t(lang, 'cmd.sessionFolder', { path: s.workspace });
  return `${base}  [${folder}]`;
}

/**
 * `/sessions`: this workspace's sessions first, then the others, each marked with its
 * folder ("no folder" for a session from before sessions had one). `list` comes from
 * `SessionStore.list()`, which already puts this workspace's sessions first.
 */
export function sessionList(list: readonly SessionInfo[], current: string, lang: Lang): string {
  const here = list.filter((s) => s.here).map((s) => row(s, current, lang));
  const elsewhere = list.filter((s) => !s.here).map((s) => row(s, current, lang));
  return [
    ...(here.length ? [t(lang, 'cmd.sessionsHere'), ...here] : []),
    ...(elsewhere.length ? [t(lang, 'cmd.sessionsElsewhere'), ...elsewhere] : []),
  ].join('\n');
}
