/**
 * The middle of the screen: the panes, or the overlay that covers them. Every pane is
 * memoised and gets only what it draws, so a key that changes nothing in a pane (typing in
 * the input line) does not draw it again.
 */
import React, { memo, useMemo } from 'react';
import { buildDigest } from '../../src/ledger/digest.js';
import type { AgentStore } from '../../src/store/agentStore.js';
import { AwayDigest } from '../AwayDigest.js';
import { HelpOverlay } from '../HelpOverlay.js';
import type { Focus } from '../keys/types.js';
import { LedgerOverlay } from '../LedgerOverlay.js';
import { SessionPicker } from '../SessionPicker.js';
import { ReasoningPane } from '../panes/ReasoningPane.js';
import { ReplyPane } from '../panes/ReplyPane.js';
import { ToolLogPane } from '../panes/ToolLogPane.js';
import { ToolDetail } from '../ToolDetail.js';
import type { UiState } from '../ui/uiState.js';
import type { ScreenView } from './useScreenView.js';

const Reply = memo(ReplyPane);
const Reasoning = memo(ReasoningPane);
const Tools = memo(ToolLogPane);
const Help = memo(HelpOverlay);
const Detail = memo(ToolDetail);
const Ledger = memo(LedgerOverlay);
const Away = memo(AwayDigest);
const Picker = memo(SessionPicker);

interface ScreenPanesProps {
  store: AgentStore;
  view: ScreenView;
  ui: Pick<UiState, 'overlay' | 'away' | 'picker'>;
  /** The focus as shown (a hidden pane's focus shows on the input). */
  focus: Focus;
}

export function ScreenPanes({ store, view, ui, focus }: ScreenPanesProps): React.JSX.Element {
  const { layout, overlay } = view;
  const w = layout.width;
  const away = ui.away;
  const digest = useMemo(() => {
    if (!away) return away;
    const { ledger, activity } = store.getState();
    return buildDigest(ledger, away.since, away.until, activity);
  }, [store, away]);
  if (ui.overlay !== 'none') {
    if (layout.panes === 0) return <></>;
    const size = { width: w, height: layout.panes };
    if (ui.overlay === 'help' && overlay)
      return <Help {...size} rows={overlay.rows} offset={overlay.offset} />;
    if (ui.overlay === 'detail' && overlay)
      return <Detail {...size} detail={overlay} offset={overlay.offset} max={overlay.max} />;
    if (ui.overlay === 'ledger') return <Ledger store={store} {...size} />;
    if (ui.overlay === 'away' && digest) return <Away digest={digest} {...size} />;
    if (ui.overlay === 'sessions' && ui.picker)
      return <Picker choices={ui.picker.choices} sel={ui.picker.sel} {...size} />;
    return <></>;
  }
  const titled = { width: w, title: layout.titles };
  return (
    <>
      {layout.reasoning > 0 && (
        <Reasoning
          {...titled}
          view={view.reasoning}
          height={layout.reasoning}
          focused={focus === 'reasoning'}
        />
      )}
      {layout.reply > 0 && (
        <Reply {...titled} view={view.reply} height={layout.reply} focused={focus === 'reply'} />
      )}
      {layout.tools > 0 && (
        <Tools {...titled} view={view.tools} height={layout.tools} focused={focus === 'tools'} />
      )}
    </>
  );
}
