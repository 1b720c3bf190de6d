import React from 'react';
import { Box } from 'ink';
import { t } from '../src/i18n/messages.js';
import { useLang } from './i18n.js';
import { PaneRows, TitleRule } from './panes/PaneRows.js';
import type { Row } from './panes/rows.js';

export interface HelpOverlayProps {
  width: number;
  /** Rows in all, title included. */
  height: number;
  /** All its rows (helpOverlayRows in overlayView.ts). */
  rows: readonly Row[];
  /** Rows scrolled down from the top, within the limit (the screen clamps it). */
  offset: number;
}

/** The key table (generated from the bindings) and the slash commands. */
export function HelpOverlay(p: HelpOverlayProps): React.JSX.Element {
  const lang = useLang();
  const body = Math.max(0, p.height - 1);
  return (
    <Box flexDirection="column" width={p.width}>
      <TitleRule
        title={t(lang, 'help.title')}
        width={p.width}
        focused
        right={t(lang, 'help.close')}
      />
      <PaneRows rows={p.rows.slice(p.offset, p.offset + body)} height={body} width={p.width} />
    </Box>
  );
}
