import React from 'react';
import { Box } from 'ink';
import { t } from '../src/i18n/messages.js';
import type { AwayDigest as Digest } from '../src/ledger/digest.js';
import { shortCount, shortDuration } from '../src/ledger/table.js';
import { activityText, localTime } from '../src/agent/activityText.js';
import { useLang } from './i18n.js';
import { PaneRows, TitleRule } from './panes/PaneRows.js';
import type { Row } from './panes/rows.js';
import { wrapText } from './text/wrap.js';

export interface AwayDigestProps {
  digest: Digest;
  width: number;
  /** Rows in all, title included. */
  height: number;
}

/** "While you were away": built from the ledger, no model call. Any key closes it. */
export function AwayDigest(p: AwayDigestProps): React.JSX.Element {
  const lang = useLang();
  const d = p.digest;
  const rows: Row[] = [];
  const add = (text: string, tone: Row['tone'] = 'plain'): void => {
    for (const line of wrapText(text, Math.max(1, p.width - 2))) rows.push({ text: line, tone });
  };
  // First what it does now, and the question it still waits on: that is what needs the user.
  if (d.now) {
    add(t(lang, 'digest.now', { what: activityText(d.now, lang) }), 'label');
    if (d.now.question) {
      add(t(lang, 'digest.question', { time: localTime(d.now.question.at) }), 'label');
      add(`  ${d.now.question.text.replace(/\s+/g, ' ')}`);
    }
  }
  if (d.cycles === 0) add(t(lang, 'digest.nothing'));
  else {
    add(t(lang, 'digest.cycles', { n: d.cycles, rest: shortDuration(d.restingMs) }));
    add(
      t(lang, 'digest.tokens', {
        in: shortCount(d.tokensIn),
        cached: shortCount(d.tokensCached),
        out: shortCount(d.tokensOut),
      }),
    );
  }
  if (d.files.length > 0) {
    add(t(lang, 'digest.files', { n: d.files.length }), 'label');
    for (const f of d.files) add(`  ${f}`, 'call');
    add(t(lang, 'digest.undo'), 'dim');
  }
  if (d.replies.length > 0) {
    add(t(lang, 'digest.replies'), 'label');
    for (const r of d.replies) add(`• ${r.replace(/\s+/g, ' ')}`);
  }
  const body = Math.max(0, p.height - 1);
  return (
    <Box flexDirection="column" width={p.width}>
      <TitleRule
        title={t(lang, 'digest.title', { duration: shortDuration(d.awayMs) })}
        width={p.width}
        focused
        right={t(lang, 'digest.close')}
      />
      <PaneRows rows={rows.slice(0, body)} height={body} width={p.width} />
    </Box>
  );
}
