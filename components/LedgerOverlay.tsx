import React from 'react';
import { Box } from 'ink';
import { t } from '../src/i18n/messages.js';
import { formatLedger } from '../src/ledger/table.js';
import type { AgentStore } from '../src/store/agentStore.js';
import { useThrottledStore } from './hooks/useThrottledStore.js';
import { useLang } from './i18n.js';
import { PaneRows, TitleRule } from './panes/PaneRows.js';
import type { Row } from './panes/rows.js';
import { truncate } from './text/wrap.js';

export interface LedgerOverlayProps {
  store: AgentStore;
  width: number;
  /** Rows in all, title included. */
  height: number;
}

/** The cycle ledger's last cycles, as many as fit, newest at the bottom. */
export function LedgerOverlay(p: LedgerOverlayProps): React.JSX.Element {
  const lang = useLang();
  const ledger = useThrottledStore(p.store, (s) => s.ledger);
  const body = Math.max(0, p.height - 1);
  const lines =
    ledger.length === 0
      ? [t(lang, 'cmd.ledgerEmpty')]
      : formatLedger(ledger, lang, Math.max(1, body - 2));
  const [title, ...table] = ledger.length === 0 ? ['', ...lines] : lines;
  const rows: Row[] = table.map((text, i) => ({
    text: truncate(text, p.width),
    tone: i === 0 && ledger.length > 0 ? 'label' : 'plain',
  }));
  return (
    <Box flexDirection="column" width={p.width}>
      <TitleRule
        title={title || t(lang, 'ledger.title', { n: 0, total: 0 })}
        width={p.width}
        focused
      />
      <PaneRows rows={rows.slice(0, body)} height={body} width={p.width} />
    </Box>
  );
}
