/**
 * The approval card as plain text for a shell (`cogito approve|deny`, `cogito send --wait`):
 * what the screen's card shows (the call, why it asks, the detail or the diff, in full),
 * with the same words, and never a terminal control from the model or a file.
 */
import type { ApprovalRequest } from '../api/events.js';
import { t, type Lang } from '../i18n/messages.js';
import { stripTerminalControls } from '../safety/terminalFilter.js';

/** The plain gutter of a detail's lines (the screen's card draws the same one). */
const GUTTER = '  │ ';

export function approvalCardText(request: ApprovalRequest, lang: Lang): string {
  const clean = stripTerminalControls;
  const lines = [
    `${t(lang, 'approval.title')}: ${clean(request.call)}`,
    `  ${t(lang, 'approval.reason', { reason: clean(request.reason) })}`,
  ];
  if (request.detail !== undefined) {
    // A diff keeps its own +/- columns; plain content gets the card's gutter.
    const prefix = request.detailKind === 'diff' ? '  ' : GUTTER;
    for (const line of clean(request.detail).split('\n')) lines.push(`${prefix}${line}`);
  }
  return `${lines.join('\n')}\n`;
}
