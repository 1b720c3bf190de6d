/**
 * What the input line's title rule says about the queue (talk without interrupting): which
 * line it is (the input, the queue line, or a queued message being edited) and the messages
 * waiting, numbered by their place in the queue, the one being edited marked `▸`.
 */
import { t, type Lang } from '../../src/i18n/messages.js';
import type { QueuedMessage } from '../../src/api/events.js';
import type { QueueLine } from '../keys/types.js';
import { firstLine } from '../text/sanitize.js';
import { truncate } from '../text/wrap.js';

/** Columns one queued message takes in the rule (the rest is cut with …). */
const ITEM_COLUMNS = 24;

export function inputTitle(
  lang: Lang,
  queueLine: QueueLine,
  editing: string | undefined,
  queued: readonly QueuedMessage[],
): string {
  const at = queued.findIndex((q) => q.id === editing);
  const head =
    queueLine === 'closed'
      ? t(lang, 'pane.input')
      : queueLine === 'editing' && at !== -1
        ? t(lang, 'pane.queueEdit', { n: at + 1 })
        : t(lang, 'pane.queueLine');
  if (queued.length === 0) return head;
  const items = queued.map(
    (q, i) => `${i === at ? '▸' : ''}${i + 1} ${truncate(firstLine(q.text), ITEM_COLUMNS)}`,
  );
  return `${head} · ${t(lang, 'pane.queued')}: ${items.join(' · ')}`;
}
