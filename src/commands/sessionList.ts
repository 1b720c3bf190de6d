import type { SessionInfo } from '../history/index.js';
import { t, type Lang } from '../i18n/messages.js';
import { formatDateTime } from '../i18n/dates.js';

function row(s: SessionInfo, current: string, lang: Lang): string {
  const mark = s.id === current ? '*' : ' ';
  const count = t(lang, 'cmd.messages', { count: String(s.messageCount).padStart(5) });
  const title = (s.firstUserLine ?? '').slice(0, 50);
  const base = `${mark} ${s.id}  ${formatDateTime(s.updatedAt, lang)}  ${count}  ${title}`;
  if (s.here) return base;
  const script = s.kind === 'print' ? `  [${t(lang, 'cmd.sessionScript')}]` : '';
  const folder =
    s.workspace === undefined
      ? t(lang, 'cmd.sessionNoFolder')
      : t(lang, 'cmd.sessionFolder', { path: s.workspace });
  return `${base}  [${folder}]${script}`;
}

/**
 * `/sessions`: this workspace's own sessions first (the screen's and the background
 * agent's), then the scripts' (`cogito -p`) of this workspace apart, so the throwaway runs of
 * a cron job never bury the user's conversations, then the other folders' sessions, each
 * marked with its folder ("no folder" for a session from before sessions had one) and a
 * script's marked as such. `list` comes from `SessionStore.list()`, which already puts this
 * workspace's sessions first.
 */
export function sessionList(list: readonly SessionInfo[], current: string, lang: Lang): string {
  const rows = (keep: (s: SessionInfo) => boolean): string[] =>
    list.filter(keep).map((s) => row(s, current, lang));
  const here = rows((s) => s.here && s.kind === 'interactive');
  const scripts = rows((s) => s.here && s.kind === 'print');
  const elsewhere = rows((s) => !s.here);
  return [
    ...(here.length ? [t(lang, 'cmd.sessionsHere'), ...here] : []),
    ...(scripts.length ? [t(lang, 'cmd.sessionsScripts'), ...scripts] : []),
    ...(elsewhere.length ? [t(lang, 'cmd.sessionsElsewhere'), ...elsewhere] : []),
  ].join('\n');
}
