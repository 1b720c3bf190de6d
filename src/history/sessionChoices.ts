/**
 * The headless half of the session picker and of `/resume ID`: which of this folder's
 * sessions to offer, in what order, and which one a typed id or prefix names. The screen's
 * picker (components/SessionPicker.tsx) only draws and moves through these.
 */
import type { SessionKind } from './meta.js';
import type { SessionInfo } from './sessionStore.js';

/** One row of the picker: a session of this folder. */
export interface SessionChoice {
  id: string;
  /** The first line of its first user message; empty for a session with none yet. */
  title: string;
  /** Last use (epoch ms). */
  updatedAt: number;
  messageCount: number;
  kind: SessionKind;
  /** The session the agent works in now. */
  current: boolean;
}

/**
 * This folder's sessions as the picker offers them: the user's first, then the scripts'
 * (`cogito -p`), each newest first, so a cron job's runs never push the conversations the
 * user came for off the list. Other folders' sessions are not offered (`--session ID --force`).
 */
export function sessionChoices(list: readonly SessionInfo[], currentId: string): SessionChoice[] {
  const here = list
    .filter((s) => s.here)
    .slice()
    .sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : -1));
  const choice = (s: SessionInfo): SessionChoice => ({
    id: s.id,
    title: s.firstUserLine ?? '',
    updatedAt: s.updatedAt,
    messageCount: s.messageCount,
    kind: s.kind,
    current: s.id === currentId,
  });
  return [
    ...here.filter((s) => s.kind === 'interactive').map(choice),
    ...here.filter((s) => s.kind === 'print').map(choice),
  ];
}

export type SessionMatch =
  | { ok: true; session: SessionInfo }
  | { ok: false; why: 'none' | 'elsewhere'; session?: SessionInfo }
  | { ok: false; why: 'ambiguous'; candidates: SessionInfo[] };

/**
 * The session `typed` names: its whole id, or a prefix of exactly one id among this
 * folder's sessions (ids begin with their date, so `2026-12-05T09` is often enough). A
 * session of another folder is named only by its whole id, and then refused ('elsewhere').
 */
export function matchSession(list: readonly SessionInfo[], typed: string): SessionMatch {
  const exact = list.find((s) => s.id === typed);
  if (exact)
    return exact.here
      ? { ok: true, session: exact }
      : { ok: false, why: 'elsewhere', session: exact };
  const found = list.filter((s) => s.here && s.id.startsWith(typed));
  if (found.length === 1) return { ok: true, session: found[0]! };
  if (found.length === 0) return { ok: false, why: 'none' };
  return { ok: false, why: 'ambiguous', candidates: found };
}
