/**
 * What the conversation pane shows, computed at the top of the screen: its rows for the
 * pane's size and scroll position, where the view is (anchored on the content while rows
 * arrive below) and how far it can scroll. The pane only draws the result; the key reducer
 * reads `offset` and `max` from it. Nothing here writes anything but its own caches.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Lang } from '../../src/i18n/messages.js';
import { t } from '../../src/i18n/messages.js';
import type { AgentStore } from '../../src/store/agentStore.js';
import { useThrottledStore } from '../hooks/useThrottledStore.js';
import { highlighterReady, highlighterVersion } from '../markdown/highlightLoad.js';
import { WrapCache } from '../text/wrapCache.js';
import type { ScrollPos } from '../ui/uiState.js';
import { blockRows, buildBlocks, type Block } from './conversation.js';
import { LiveRows } from './liveRows.js';
import { bottomWindow, type Row } from './rows.js';
import { useScrollAnchor } from './scrollAnchor.js';

/** A scrolling pane's frame: its rows, where it shows its view, and how far it can go. */
export interface PaneView {
  rows: readonly Row[];
  /** Rows scrolled up from the bottom, as shown. */
  offset: number;
  /** How far up it can go (Infinity while not known: the top was not wrapped yet). */
  max: number;
}

/** What was below the view when the user scrolled: the newest settled block, the live rows. */
interface Below {
  key: string | undefined;
  liveRows: number;
}

/** The conversation, newest at the bottom, with the reply streaming in below it. */
export function useReplyView(
  store: AgentStore,
  size: { width: number; height: number },
  pos: ScrollPos,
  lang: Lang,
): PaneView {
  const { width, height } = size;
  const messages = useThrottledStore(store, (s) => s.messages);
  const notices = useThrottledStore(store, (s) => s.notices);
  const liveReply = useThrottledStore(store, (s) => s.liveReply);
  // The parts the turn read (message_update); the pane parses nothing.
  const liveParts = useThrottledStore(store, (s) => s.liveParts);
  const liveEnded = useThrottledStore(store, (s) => s.liveEnded);
  const streaming = useThrottledStore(store, (s) => s.streaming);
  const hl = useHighlighter();
  // Each message is parsed and wrapped once per width (messages never change once added).
  const cache = useRef(new WrapCache<Row[]>()).current;
  const live = useRef(new LiveRows()).current;

  const blocks = useMemo(() => buildBlocks(messages, notices), [messages, notices]);
  const all: Block[] = useMemo(
    () =>
      liveReply || streaming
        ? [
            ...blocks,
            {
              kind: 'live',
              key: 'live',
              text: liveReply,
              parts: liveParts,
              // Once it has all come it is drawn as it will be saved: whole, no cursor.
              streaming: streaming && !liveEnded,
            },
          ]
        : blocks,
    [blocks, liveReply, liveParts, liveEnded, streaming],
  );
  const rowsOf = useCallback(
    (b: Block): Row[] =>
      b.kind === 'live'
        ? live.rows(b.text, b.parts, width, lang, b.streaming)
        : cache.get(`${lang}:${hl}:${b.key}`, width, () =>
            // The reply that just finished streaming goes on from its live streams.
            blockRows(
              b,
              width,
              lang,
              adoptable(b) ? live.adopt(b.message.content, width) : undefined,
            ),
          ),
    [live, cache, width, lang, hl],
  );
  const lastBlock = all[all.length - 1];
  const anchored = useScrollAnchor<Below>({
    offset: pos.offset,
    mark: pos.mark,
    width,
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
  // Memoised so that an unchanged pane gets the same props (and is not drawn again).
  return useMemo(
    () => windowOf(all, rowsOf, height, anchored, lang),
    [all, rowsOf, height, anchored, lang],
  );
}

/** A saved reply of the agent's, which may be the live reply that just ended. */
const adoptable = (b: Block): b is Extract<Block, { kind: 'message' }> =>
  b.kind === 'message' && b.message.role === 'assistant' && !b.message.summary;

function windowOf(
  all: readonly Block[],
  rowsOf: (b: Block) => Row[],
  height: number,
  offset: number,
  lang: Lang,
): PaneView {
  const win = bottomWindow(all, rowsOf, height, offset);
  const rows =
    all.length === 0 ? [{ text: t(lang, 'reply.empty'), tone: 'dim' as const }] : win.rows;
  return { rows, offset: win.offset, max: win.maxOffset };
}

/**
 * Re-renders once the code highlighter is ready (the first code block drawn loads it), so
 * code already on screen gets its colours; returns its version (part of the row cache's key).
 */
function useHighlighter(): number {
  const [version, setVersion] = useState(highlighterVersion());
  useEffect(() => {
    let live = true;
    void highlighterReady().then(() => live && setVersion(highlighterVersion()));
    return () => {
      live = false;
    };
  }, []);
  return version;
}
