import React from 'react';
import { Box } from 'ink';
import { t } from '../src/i18n/messages.js';
import { plainText, useLang } from './i18n.js';
import { helpRows } from './keys/hints.js';
import { PaneRows, TitleRule } from './panes/PaneRows.js';
import type { Row } from './panes/rows.js';
import { displayWidth, padTo, wrapText } from './text/wrap.js';

export interface HelpOverlayProps {
  width: number;
  /** Rows in all, title included. */
  height: number;
  offset: number;
  /** Slash command names, e.g. ["/help", "/pause"]. */
  commands: readonly string[];
  onLimit?(maxOffset: number): void;
}

/** The key table (generated from the bindings) and the slash commands. */
export function HelpOverlay(p: HelpOverlayProps): React.JSX.Element {
  const lang = useLang();
  const table = helpRows();
  const keyCol = Math.min(
    24,
    Math.max(...table.map((r) => displayWidth(r.keys))),
    Math.floor(p.width / 3),
  );
  const rows: Row[] = [{ text: t(lang, 'help.keys'), tone: 'label' }];
  for (const r of table) {
    const desc = wrapText(plainText(lang, r.description), Math.max(1, p.width - keyCol - 4));
    desc.forEach((d, i) =>
      rows.push({
        text: `  ${i === 0 ? padTo(r.keys, keyCol) : ' '.repeat(keyCol)}  ${d}`,
        tone: 'plain',
      }),
    );
  }
  if (p.commands.length > 0) {
    rows.push({ text: '', tone: 'plain' }, { text: t(lang, 'help.commands'), tone: 'label' });
    for (const line of wrapText(p.commands.join('  '), Math.max(1, p.width - 2)))
      rows.push({ text: `  ${line}`, tone: 'call' });
  }
  const body = Math.max(0, p.height - 1);
  const max = Math.max(0, rows.length - body);
  p.onLimit?.(max);
  const off = Math.min(p.offset, max);
  return (
    <Box flexDirection="column" width={p.width}>
      <TitleRule
        title={t(lang, 'help.title')}
        width={p.width}
        focused
        right={t(lang, 'help.close')}
      />
      <PaneRows rows={rows.slice(off, off + body)} height={body} width={p.width} />
    </Box>
  );
}
