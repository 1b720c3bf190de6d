/**
 * Everything the approval card asks about, as rows wrapped to the card's width: the call,
 * why it asks, and the detail (the content written, the command run, or a unified diff
 * against the file as it is). Nothing is cut: the card shows a window of these rows and
 * scrolls (cardWindow), so content of any length and width can be read to its last line.
 */
import type { ApprovalRequest } from '../../src/api/events.js';
import type { Lang } from '../../src/i18n/messages.js';
import { t } from '../../src/i18n/messages.js';
import { prefixed, type Row } from '../panes/rows.js';
import { diffRows } from '../text/diffRows.js';
import { sanitize } from '../text/sanitize.js';
import { wrapText } from '../text/wrap.js';

/** The gutter of a plain detail's rows, and of a wrapped row's continuation. */
const GUTTER = '  │ ';
const GUTTER_MORE = '  ┆ ';

export function approvalRows(request: ApprovalRequest, width: number, lang: Lang): Row[] {
  const inner = Math.max(1, width - 2);
  const rows: Row[] = [
    ...prefixed(wrapText(sanitize(request.call), inner), '  ', '  ', 'call'),
    ...prefixed(
      wrapText(t(lang, 'approval.reason', { reason: sanitize(request.reason) }), inner),
      '  ',
      '  ',
      'dim',
    ),
  ];
  const { detail } = request;
  if (detail === undefined) return rows;
  if (request.detailKind === 'diff') return [...rows, ...diffRows(detail, width, '  ')];
  const room = Math.max(1, width - GUTTER.length);
  for (const line of sanitize(detail).split('\n')) {
    rows.push(...prefixed(wrapText(line, room), GUTTER, GUTTER_MORE, 'plain'));
  }
  return rows;
}

/** Which rows the card shows at `offset`, given its height (title and question included). */
interface CardWindow {
  /** Rows of content shown. */
  body: number;
  /** First row shown (the offset, clamped). */
  start: number;
  /** How far it can scroll. */
  max: number;
  /** A "lines X–Y of N" line is shown (the content does not fit). */
  position: boolean;
  /** The title rule is shown. */
  title: boolean;
}

export function cardWindow(total: number, height: number, offset: number): CardWindow {
  const title = height >= 4;
  const space = Math.max(0, height - 1 - (title ? 1 : 0));
  const position = total > space && space >= 3;
  const body = position ? space - 1 : space;
  const max = Math.max(0, total - body);
  return { body, start: Math.max(0, Math.min(offset, max)), max, position, title };
}
