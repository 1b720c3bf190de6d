import React, { useEffect, useMemo, useRef, useState } from 'react';
import { Box } from 'ink';
import { t } from '../../src/i18n/messages.js';
import { useThrottledStore } from '../hooks/useThrottledStore.js';
import { useLang } from '../i18n.js';
import { highlighterVersion, loadHighlighter } from '../markdown/highlightLoad.js';
import { WrapCache } from '../text/wrapCache.js';
import { blockRows, buildBlocks, type Block } from './conversation.js';
import { LiveRows } from './liveRows.js';
import { PaneRows, TitleRule } from './PaneRows.js';
import { bottomWindow, type Row } from './rows.js';
import { useScrollAnchor, type ScrollPaneProps } from './scrollAnchor.js';

export type ReplyPaneProps = ScrollPaneProps;

/** What was below the view when the user scrolled: the newest settled block, the live rows. */
interface Below {
  key: string | undefined;
  liveRows: number;
}

/** The conversation, newest at the bottom, with the reply streaming in below it. */
export function ReplyPane(p: ReplyPaneProps): React.JSX.Element {
  const lang = useLang();
  const messages = useThrottledStore(p.store, (s) => s.messages);
  const notices = useThrottledStore(p.store, (s) => s.notices);
  const liveReply = useThrottledStore(p.store, (s) => s.liveReply);
  const streaming = useThrottledStore(p.store, (s) => s.streaming);
  const cache = useRef(new WrapCache<Row[]>()).current;
  const live = useRef(new LiveRows()).current;
  const hl = useHighlighter();

  const blocks = useMemo(() => buildBlocks(messages, notices), [messages, notices]);
  const all: Block[] =
    liveReply || streaming
      ? [...blocks, { kind: 'live', key: 'live', text: liveReply, streaming }]
      : blocks;
  const rowsOf = (b: Block): Row[] =>
    b.kind === 'live'
      ? live.rows(b.text, p.width, lang, b.streaming)
      : cache.get(`${lang}:${hl}:${b.key}`, p.width, () => blockRows(b, p.width, lang));
  const lastBlock = all[all.length - 1];
  const offset = useScrollAnchor<Below>({
    offset: p.offset,
    mark: p.mark ?? 0,
    width: p.width,
    snapshot: () => ({
      key: blocks[blocks.length - 1]?.key,
      liveRows: lastBlock?.kind === 'live' ? rowsOf(lastBlock).length : 0,
    }),
    grownSince: (below) => {
      // Everything after the block that was newest then is new (a live reply counts anew).
      const at = below.key === undefined ? -1 : all.findLastIndex((b) => b.key === below.key);
      // That block is gone (compacted, a new session): there is nothing to stay with.
      if (at === -1 && below.key !== undefined) return 0;
      let rows = 0;
      for (let i = at + 1; i < all.length; i++) rows += rowsOf(all[i]!).length;
      return rows - below.liveRows;
    },
  });
  const win = bottomWindow(all, rowsOf, p.height, offset);
  p.onScrolled?.(win.offset, win.maxOffset);

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

/**
 * Loads the code highlighter after the first frame and re-renders once it is ready, so code
 * already on screen gets its colours; returns its version (part of the row cache's key).
 */
function useHighlighter(): number {
  const [version, setVersion] = useState(highlighterVersion());
  useEffect(() => {
    let live = true;
    void loadHighlighter().then(() => live && setVersion(highlighterVersion()));
    return () => {
      live = false;
    };
  }, []);
  return version;
}
