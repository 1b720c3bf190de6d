/**
 * The conversation as the reply pane shows it: messages and notices merged in time order,
 * each turned into rows. Agent replies show their tool calls as one compact line each (the
 * tool log has the details); tool results collapse to one dim line.
 */
import type { HistoryMessage, ReplyParts, ResultSummary } from '../../src/core/messages.js';
import type { Lang } from '../../src/i18n/messages.js';
import { t } from '../../src/i18n/messages.js';
import { splitAttachments, type AttachedFile } from '../../src/agent/mentions.js';
import { formatSize } from '../../src/tools/files/common.js';
import type { Notice } from '../../src/store/reducer.js';
import { firstLine, sanitize } from '../text/sanitize.js';
import { displayWidth, truncate, wrapText } from '../text/wrap.js';
import { markdownLines, type Line } from '../markdown/markdown.js';
import { spanText, truncateSpans } from '../markdown/spans.js';
import { prefixed, type Row, type Tone } from './rows.js';

export type Block =
  | { kind: 'message'; key: string; message: HistoryMessage }
  | { kind: 'notice'; key: string; notice: Notice }
  | { kind: 'live'; key: string; text: string; parts: ReplyParts; streaming: boolean };

/** Messages and notices in time order (both lists are already sorted; a stable merge). */
export function buildBlocks(
  messages: readonly HistoryMessage[],
  notices: readonly Notice[],
): Block[] {
  const out: Block[] = [];
  let n = 0;
  for (const message of messages) {
    while (n < notices.length && notices[n]!.at < message.at) {
      out.push({ kind: 'notice', key: `n${notices[n]!.id}`, notice: notices[n]! });
      n++;
    }
    out.push({ kind: 'message', key: message.id, message });
  }
  for (; n < notices.length; n++)
    out.push({ kind: 'notice', key: `n${notices[n]!.id}`, notice: notices[n]! });
  return out;
}

const AGENT = '◆ ';
const USER = '› ';
const INDENT = '  ';

/**
 * A tool message as one line: each call with ✓ or ✗ (the tool log has the rest), from the
 * message's structured `results`. A tool message without them (none is written so today;
 * old sessions get them when loaded) shows its text's first line as it is.
 */
export function resultsLine(m: Pick<HistoryMessage, 'content' | 'results'>): string {
  const results = m.results ?? [];
  if (results.length === 0) return firstLine(m.content);
  return results.map((r) => `${resultIcon(r)} ${r.call}`).join('  ');
}

/** ✓ ok, ✗ failed, ⊘ denied, ↷ not run (the tool log's icons; old sessions: ✓ or ✗). */
function resultIcon(r: ResultSummary): string {
  if (r.shown?.status === 'denied') return '⊘';
  if (r.shown?.status === 'skipped') return '↷';
  return r.ok ? '✓' : '✗';
}

/**
 * Draws the `index`-th stretch of text of a reply (the text before its first tool call is
 * 0) as Markdown lines. The live reply passes one that keeps what it drew before (see
 * liveRows.ts).
 */
export type SegmentRender = (text: string, width: number, index: number) => Line[];

const renderSegment: SegmentRender = (text, width) => markdownLines(text, width);

/** Markdown lines as agent rows behind the reply's indent. */
function lineRows(lines: readonly Line[]): Row[] {
  return lines.map((l) => {
    const spans = [{ text: INDENT }, ...l];
    return { text: spanText(spans), tone: 'agent', spans };
  });
}

/** `row` with `more` (plain) at its end. */
function appended(row: Row, more: string): Row {
  return { ...row, text: row.text + more, spans: row.spans && [...row.spans, { text: more }] };
}

/**
 * An agent reply from its parts (never from its text: the turn read it once): text wrapped,
 * each tool call on one line, [WAIT] dropped.
 */
export function agentRows(
  parts: ReplyParts,
  width: number,
  extra: { interrupted?: boolean; failed?: boolean; lang: Lang; cursor?: boolean },
  render: SegmentRender = renderSegment,
): Row[] {
  const inner = Math.max(1, width - INDENT.length);
  const rows: Row[] = [];
  // A stretch of text is drawn as the segment numbered by the calls before it.
  let segment = 0;
  for (const part of parts.items) {
    if (part.type === 'text') {
      const clean = sanitize(part.text).replace(/^\n+|\s+$/g, '');
      if (clean.trim() !== '') rows.push(...lineRows(render(clean, inner, segment)));
      continue;
    }
    segment += 1;
    const body = part.raw
      .replace(/^\[tool\]\s*/i, '')
      .replace(/\s*\[\/tool\]$/i, '')
      .replace(/\s+/g, ' ');
    const ok = part.error === undefined;
    rows.push({
      text: INDENT + truncate((ok ? '⚙ ' : '⚠ ') + sanitize(body), inner),
      tone: ok ? 'call' : 'warn',
    });
  }
  if (extra.cursor) {
    const last = rows[rows.length - 1];
    // Measured in columns: a row of CJK text is full long before its length reaches the width.
    if (last && last.tone === 'agent' && displayWidth(last.text) < width)
      rows[rows.length - 1] = appended(last, '▍');
    else rows.push({ text: INDENT + '▍', tone: 'agent' });
  }
  if (rows.length === 0) rows.push({ text: INDENT, tone: 'agent' });
  rows[0] = withHead(rows[0]!);
  if (extra.interrupted) {
    const last = rows.length - 1;
    rows[last] = withMarker(rows[last]!, `  ⏎ ${t(extra.lang, 'interrupted.marker')}`, width);
  } else if (extra.failed)
    rows.push({ text: `${INDENT}⚠ ${t(extra.lang, 'failed.marker')}`, tone: 'warn' });
  return rows;
}

/** The reply's first row with the agent's mark in place of the indent. */
function withHead(row: Row): Row {
  const text = AGENT + row.text.slice(INDENT.length);
  if (!row.spans) return { ...row, text };
  return { ...row, text, spans: [{ text: AGENT }, ...row.spans.slice(1)] };
}

/** `HH:MM` in local time. */
export function clockTime(at: number): string {
  const d = new Date(at);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/** Above an autonomous reply: a blank row, then its cycle number and time, dim. */
function cycleHead(cycle: number, at: number, lang: Lang): Row[] {
  const text = `${INDENT}${t(lang, 'reply.cycleHead', { n: cycle, time: clockTime(at) })}`;
  return [
    { text: '', tone: 'plain' },
    { text, tone: 'dim' },
  ];
}

/**
 * The interrupted marker on the reply's last row, cut shorter when they do not fit
 * together: on a row of its own it could head the pane alone once the reply scrolled away.
 */
function withMarker(row: Row, marker: string, width: number): Row {
  const room = width - displayWidth(marker);
  const spans = row.spans ?? [{ text: row.text }];
  const cut = room > 0 ? truncateSpans(spans, room) : [];
  const all = [...cut, { text: marker, style: { dimColor: true } }];
  return { text: spanText(all), tone: row.tone, spans: all };
}

/** A reply that has no parts (a message built without the turn, an import): all text. */
function textOnly(content: string): ReplyParts {
  return { items: [{ type: 'text', text: content }], wait: false };
}

/** `attached notes/a.md (2.1 KB)`, or `not attached: gone.md`. */
function attachedLine(f: AttachedFile, lang: Lang): string {
  const path = sanitize(f.path);
  return f.bytes === undefined
    ? t(lang, 'reply.notAttached', { path })
    : t(lang, 'reply.attached', { path, size: formatSize(f.bytes) });
}

const NOTICE_TONE: Record<Notice['level'], Tone> = { info: 'notice', warn: 'warn', error: 'error' };

/**
 * The rows of one block at `width` columns. `render` draws a reply's text (default: a fresh
 * Markdown parse); the reply that just finished streaming passes its live streams
 * (LiveRows.adopt), so only its tail is lexed again.
 */
export function blockRows(
  block: Block,
  width: number,
  lang: Lang,
  render: SegmentRender = renderSegment,
): Row[] {
  const inner = Math.max(1, width - 2);
  switch (block.kind) {
    case 'notice': {
      const lines = wrapText(sanitize(block.notice.text).trimEnd(), inner);
      return prefixed(lines, '· ', '  ', NOTICE_TONE[block.notice.level]);
    }
    case 'live':
      return agentRows(block.parts, width, { lang, cursor: block.streaming });
    case 'message': {
      const m = block.message;
      if (m.summary || m.role === 'system') {
        const lines = wrapText(sanitize(m.content).trim(), inner);
        const shown = lines.length > 6 ? [...lines.slice(0, 6), '…'] : lines;
        return [
          { text: `≡ ${t(lang, 'reply.summary')}`, tone: 'dim' },
          ...prefixed(shown, '  ', '  ', 'dim'),
        ];
      }
      if (m.role === 'tool')
        return [{ text: truncate(`  ↳ ${resultsLine(m)}`, width), tone: 'dim' }];
      if (m.role === 'user') {
        // Files attached with `@path` show as one line each, not as their whole text.
        const { text, files } = splitAttachments(m.content);
        return [
          { text: '', tone: 'plain' },
          ...prefixed(wrapText(sanitize(text).trimEnd(), inner), USER, '  ', 'user'),
          ...files.map((f): Row => ({
            text: truncate(`  ↳ ${attachedLine(f, lang)}`, width),
            tone: 'dim',
          })),
        ];
      }
      const reply = agentRows(
        m.parts ?? textOnly(m.content),
        width,
        { interrupted: m.interrupted === true, failed: m.failed === true, lang },
        render,
      );
      return m.cycle === undefined ? reply : [...cycleHead(m.cycle, m.at, lang), ...reply];
    }
  }
}
