import React from 'react';
import { Box } from 'ink';
import { PaneRows, TitleRule } from './panes/PaneRows.js';
import type { OverlayRows } from './overlayView.js';

export interface ToolDetailProps {
  /** The call's title and all its rows (useOverlayRows in overlayView.ts). */
  detail: OverlayRows;
  width: number;
  /** Rows in all, title included. */
  height: number;
  /** Rows scrolled down from the top, within the limit (the screen clamps it). */
  offset: number;
  /** How far it can scroll. */
  max: number;
}

/** One tool call in full: the call, every argument, and the whole result. Esc closes it. */
export function ToolDetail(p: ToolDetailProps): React.JSX.Element {
  const body = Math.max(0, p.height - 1);
  const more = p.max > 0 ? `${p.offset}/${p.max} ↕` : '';
  return (
    <Box flexDirection="column" width={p.width}>
      <TitleRule title={p.detail.title} width={p.width} focused right={more} />
      <PaneRows
        rows={p.detail.rows.slice(p.offset, p.offset + body)}
        height={body}
        width={p.width}
      />
    </Box>
  );
}
