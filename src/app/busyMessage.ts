/**
 * What to tell someone who finds a folder held by another live Cogito: who holds it, since
 * when (local time), and the command that works from here, which depends on what holds it. A
 * screen is named with Ctrl+D, its way to leave the agent in the background (issue 33: the
 * way out was never named).
 */
import { invokedAs } from '../core/invokedAs.js';
import { t, type Lang } from '../i18n/messages.js';

/** The lock holder as its file says (lock.ts's Holder; kept structural: no import circle). */
interface Holder {
  pid: number;
  since?: string;
  kind?: string;
}

/** `2026-12-05 10:02` in the local zone (`10:02` today); the ISO text if unreadable. */
export function localSince(iso: string, now = Date.now()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number): string => String(n).padStart(2, '0');
  const hm = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  if (d.toDateString() === new Date(now).toDateString()) return hm;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${hm}`;
}

export function busyMessage(holder: Holder, workspace: string, lang: Lang = 'en'): string {
  const cmd = invokedAs();
  const since = holder.since ? t(lang, 'folder.since', { time: localSince(holder.since) }) : '';
  const vars = {
    pid: holder.pid,
    since,
    folder: workspace,
    quoted: JSON.stringify(workspace),
    cmd,
    elsewhere: t(lang, 'folder.elsewhere', { cmd }),
  };
  switch (holder.kind) {
    case 'background':
      return t(lang, 'folder.busyBackground', vars);
    case 'print':
      return t(lang, 'folder.busyPrint', vars);
    case 'screen':
      return t(lang, 'folder.busyScreen', vars);
    default:
      return t(lang, 'folder.busyOther', vars);
  }
}
