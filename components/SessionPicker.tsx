/**
 * The session picker `/resume` opens: this folder's sessions, the user's first, then the
 * scripts' (`cogito -p`) under their own heading, newest first, each with its title (the
 * first message), its last use in local time and its message count. ↑↓ or j/k choose, Enter
 * opens, Esc closes (components/keys/bindings.ts); the list comes from
 * src/commands/sessionChoices.ts.
 */
import React from 'react';
import { Box } from 'ink';
import type { SessionChoice } from '../src/history/sessionChoices.js';
import { formatDateTime } from '../src/i18n/dates.js';
import { t, type Lang } from '../src/i18n/messages.js';
import { useLang } from './i18n.js';
import { PaneRows, TitleRule } from './panes/PaneRows.js';
import type { Row } from './panes/rows.js';
import { truncate } from './text/wrap.js';

export interface SessionPickerProps {
  choices: readonly SessionChoice[];
  /** The chosen row (an index into `choices`). */
  sel: number;
  width: number;
  /** Rows in all, title included. */
  height: number;
}

/** One session's row: marker, title, local time, message count, "open now". */
function choiceRow(c: SessionChoice, chosen: boolean, width: number, lang: Lang): Row {
  const title = c.title === '' ? t(lang, 'picker.untitled') : c.title;
  const count = t(lang, 'cmd.messages', { count: c.messageCount });
  const now = c.current ? `  · ${t(lang, 'picker.current')}` : '';
  const text = `${chosen ? '›' : ' '} ${title}  · ${formatDateTime(c.updatedAt, lang)} · ${count}${now}`;
  return { text: truncate(text, width), tone: chosen ? 'selected' : c.current ? 'dim' : 'plain' };
}

/**
 * All the picker's rows, group headings included, and the row of the chosen session (so the
 * window can keep it in view).
 */
export function pickerRows(
  choices: readonly SessionChoice[],
  sel: number,
  width: number,
  lang: Lang,
): { rows: Row[]; selRow: number } {
  const rows: Row[] = [];
  let selRow = 0;
  let kind: SessionChoice['kind'] | undefined;
  choices.forEach((c, i) => {
    if (c.kind !== kind) {
      kind = c.kind;
      const heading = kind === 'print' ? 'picker.scripts' : 'picker.yours';
      rows.push({ text: truncate(t(lang, heading), width), tone: 'label' });
    }
    if (i === sel) selRow = rows.length;
    rows.push(choiceRow(c, i === sel, width, lang));
  });
  return { rows, selRow };
}

export function SessionPicker(p: SessionPickerProps): React.JSX.Element {
  const lang = useLang();
  const body = Math.max(0, p.height - 1);
  const { rows, selRow } =
    p.choices.length === 0
      ? { rows: [{ text: t(lang, 'picker.empty'), tone: 'dim' as const }], selRow: 0 }
      : pickerRows(p.choices, p.sel, p.width, lang);
  // The window that keeps the chosen row in view (from the top while it fits).
  const top = Math.max(0, Math.min(selRow - body + 1, rows.length - body));
  return (
    <Box flexDirection="column" width={p.width}>
      <TitleRule
        title={t(lang, 'picker.title', { count: p.choices.length })}
        width={p.width}
        focused
      />
      <PaneRows rows={rows.slice(top, top + body)} height={body} width={p.width} />
    </Box>
  );
}
