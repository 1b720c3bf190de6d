import React, { useMemo, useRef } from 'react';
import { Box } from 'ink';
import type { AgentStore } from '../../src/store/agentStore.js';
import { t } from '../../src/i18n/messages.js';
import { useThrottledStore } from '../hooks/useThrottledStore.js';
import { useLang } from '../i18n.js';
import { WrapCache } from '../text/wrapCache.js';
import { blockRows, buildBlocks, type Block } from './conversation.js';
import { PaneRows, TitleRule } from './PaneRows.js';
import { bottomWindow, type Row } from './rows.js';

export interface ReplyPaneProps {
  store: AgentStore;
  width: number;
  /** Body rows (the title takes one more when `title`). */
  height: number;
  title: boolean;
  focused: boolean;
  /** Rows scrolled up from the bottom (0 follows the newest). */
  offset: number;
  /** Told how far up this pane can scroll (Infinity while unknown). */
  onLimit?(maxOffset: number): void;
}

/** The conversation, newest at the bottom, with the reply streaming in below it. */
export function ReplyPane(p: ReplyPaneProps): React.JSX.Element {
  const lang = useLang();
  const messages = useThrottledStore(p.store, (s) => s.messages);
  const notices = useThrottledStore(p.store, (s) => s.notices);
  const liveReply = useThrottledStore(p.store, (s) => s.liveReply);
  const streaming = useThrottledStore(p.store, (s) => s.streaming);
  const cache = useRef(new WrapCache<Row[]>()).current;

  const blocks = useMemo(() => buildBlocks(messages, notices), [messages, notices]);
  const all: Block[] =
    liveReply || streaming
      ? [...blocks, { kind: 'live', key: 'live', text: liveReply, streaming }]
      : blocks;
  const rowsOf = (b: Block): Row[] =>
    b.kind === 'live'
      ? blockRows(b, p.width, lang)
      : cache.get(`${lang}:${b.key}`, p.width, () => blockRows(b, p.width, lang));
  const win = bottomWindow(all, rowsOf, p.height, p.offset);
  p.onLimit?.(win.maxOffset);

  const rows: Row[] = all.length === 0 ? [{ text: t(lang, 'reply.empty'), tone: 'dim' }] : win.rows;
  return (
    <Box flexDirection="column" width={p.width}>
      {p.title && (
        <TitleRule
          title={t(lang, 'pane.conversation')}
          width={p.width}
          focused={p.focused}
          right={win.offset > 0 ? `↑${win.offset}` : ''}
        />
      )}
      <PaneRows rows={rows} height={p.height} width={p.width} />
    </Box>
  );
}
