/** Tool-log entries as rows: one line per call, and the full view of one call. */
import type { ToolLogEntry } from '../../src/api/events.js';
import type { Lang } from '../../src/i18n/messages.js';
import { t } from '../../src/i18n/messages.js';
import { diffRows } from '../text/diffRows.js';
import { firstLine, sanitize } from '../text/sanitize.js';
import { formatDuration } from '../text/format.js';
import { displayWidth, padTo, truncate, wrapText } from '../text/wrap.js';
import { prefixed, type Row, type Tone } from './rows.js';

const STATUS_ICON: Record<ToolLogEntry['status'], string> = {
  running: '…',
  ok: '✓',
  error: '✗',
  denied: '⊘',
  skipped: '↷',
};

const STATUS_TONE: Record<ToolLogEntry['status'], Tone> = {
  running: 'notice',
  ok: 'ok',
  error: 'error',
  denied: 'warn',
  skipped: 'dim',
};

/** `✓ read("notes.md")   42 lines   12ms`: the call, a short result, the duration. */
export function toolRow(e: ToolLogEntry, width: number, selected: boolean, spinner: string): Row {
  const icon = e.status === 'running' ? spinner : STATUS_ICON[e.status];
  const duration = e.status === 'running' ? '' : formatDuration(e.durationMs);
  const call = sanitize(e.call).replace(/\s+/g, ' ');
  const done = e.summary ? firstLine(e.summary) : '';
  // A journaled change says how to take it back, right after its result.
  const summary = e.undo ? `${done}${done ? ' · ' : ''}undo: ${sanitize(e.undo)}` : done;
  const right = duration ? ` ${duration}` : '';
  const room = Math.max(1, width - 2 - displayWidth(right));
  const callW = summary
    ? Math.min(
        displayWidth(call),
        Math.max(Math.ceil(room * 0.55), room - displayWidth(summary) - 2),
      )
    : room;
  let body = truncate(call, callW);
  if (summary && room - displayWidth(body) > 4)
    body += `  ${truncate(summary, room - displayWidth(body) - 2)}`;
  const text = `${icon} ${padTo(body, room)}${right}`;
  return { text, tone: selected ? 'selected' : STATUS_TONE[e.status] };
}

function statusLabel(lang: Lang, status: ToolLogEntry['status']): string {
  if (status === 'running') return t(lang, 'tool.running');
  if (status === 'ok') return t(lang, 'tool.ok');
  if (status === 'error') return t(lang, 'tool.failed');
  return t(lang, status === 'denied' ? 'tool.denied' : 'tool.skipped');
}

/** The title of the detail view: `read ✓ done · 12ms`. */
export function detailTitle(e: ToolLogEntry, lang: Lang): string {
  const d = formatDuration(e.durationMs);
  return `${e.name} ${STATUS_ICON[e.status]} ${statusLabel(lang, e.status)}${d ? ` · ${d}` : ''}`;
}

/** Every argument in full and the whole result as the model saw it. */
export function detailRows(e: ToolLogEntry, width: number, lang: Lang): Row[] {
  const inner = Math.max(1, width - 2);
  const rows: Row[] = [{ text: t(lang, 'tool.call'), tone: 'label' }];
  rows.push(...prefixed(wrapText(sanitize(e.call), inner), '  ', '  ', 'call'));
  rows.push({ text: t(lang, 'tool.arguments'), tone: 'label' });
  if (e.args.length === 0) rows.push({ text: '  —', tone: 'dim' });
  e.args.forEach((a, i) => {
    const shown = typeof a === 'string' ? a : JSON.stringify(a);
    const head = `  ${i + 1}. `;
    const lines = wrapText(sanitize(shown), Math.max(1, width - head.length));
    rows.push(...prefixed(lines, head, ' '.repeat(head.length), 'plain'));
  });
  rows.push({ text: t(lang, 'tool.result'), tone: 'label' });
  const result = e.full ?? e.summary ?? (e.status === 'running' ? t(lang, 'tool.running') : '');
  const tone: Tone = e.status === 'error' ? 'error' : 'plain';
  if (e.errorKind) rows.push({ text: `  [${e.errorKind}]`, tone: 'error' });
  rows.push(...prefixed(wrapText(sanitize(result).trimEnd() || '—', inner), '  ', '  ', tone));
  // An edit or overwrite: what it changed, as a unified diff.
  if (e.diff)
    rows.push({ text: t(lang, 'tool.changes'), tone: 'label' }, ...diffRows(e.diff, width, '  '));
  if (e.undo) {
    rows.push({ text: t(lang, 'tool.undo', { command: sanitize(e.undo) }), tone: 'notice' });
  }
  return rows;
}
