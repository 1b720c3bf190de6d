/**
 * The rows of the scrolling overlays (the help, one tool call in full), computed at the top
 * of the screen so that their scroll limit is known there; the overlays only draw them.
 */
import { useMemo } from 'react';
import type { Lang } from '../src/i18n/messages.js';
import { t } from '../src/i18n/messages.js';
import type { AgentStore, AgentStoreState } from '../src/store/agentStore.js';
import type { ToolLogEntry } from '../src/api/events.js';
import { toolLogFromHistory } from '../src/store/restoredView.js';
import { useThrottledStore } from './hooks/useThrottledStore.js';
import { plainText } from './i18n.js';
import { helpRows } from './keys/hints.js';
import { commandRows, type SlashCommand } from '../src/commands/table.js';
import { useCommandTable } from './hooks/useCommandTable.js';
import type { Overlay } from './keys/types.js';
import type { Row } from './panes/rows.js';
import { detailRows, detailTitle } from './panes/toolRows.js';
import { displayWidth, padTo, wrapText } from './text/wrap.js';

/** An overlay's title and all its rows (it shows a window of them). */
export interface OverlayRows {
  title: string;
  rows: readonly Row[];
}

/** A slash command as the help lists it: its usage and what it does. */
export interface CommandHelp {
  usage: string;
  description: string;
}

/** The key table (generated from the bindings) and the slash commands, as rows. */
export function helpOverlayRows(
  lang: Lang,
  width: number,
  commands: readonly CommandHelp[],
): Row[] {
  const table = helpRows();
  const keyCol = Math.min(
    24,
    Math.max(...table.map((r) => displayWidth(r.keys))),
    Math.floor(width / 3),
  );
  const rows: Row[] = [{ text: t(lang, 'help.keys'), tone: 'label' }];
  for (const r of table) {
    const desc = wrapText(plainText(lang, r.description), Math.max(1, width - keyCol - 4));
    desc.forEach((d, i) =>
      rows.push({
        text: `  ${i === 0 ? padTo(r.keys, keyCol) : ' '.repeat(keyCol)}  ${d}`,
        tone: 'plain',
      }),
    );
  }
  if (commands.length > 0) {
    rows.push({ text: '', tone: 'plain' }, { text: t(lang, 'help.commands'), tone: 'label' });
    const col = Math.min(
      28,
      Math.max(...commands.map((c) => displayWidth(c.usage))),
      Math.floor(width / 3),
    );
    for (const c of commands) {
      const usage = wrapText(c.usage, col);
      const desc = wrapText(c.description, Math.max(1, width - col - 4));
      for (let i = 0; i < Math.max(usage.length, desc.length); i++)
        rows.push({
          text: `  ${padTo(usage[i] ?? '', col)}  ${desc[i] ?? ''}`,
          tone: i === 0 ? 'call' : 'plain',
        });
    }
  }
  return rows;
}

/** The command table's rows for the commands the input line completes (all of them). */
function commandHelp(
  commands: readonly SlashCommand[],
  lang: Lang,
  complete: (prefix: string) => readonly string[],
): CommandHelp[] {
  const known = new Set(complete(''));
  return commandRows(commands, lang).filter((r) => known.has(r.usage.split(' ')[0]!));
}

/** The rows of the open scrolling overlay, if one is open. */
export function useOverlayRows(
  store: AgentStore,
  open: { overlay: Overlay; detailId: string | undefined },
  width: number,
  lang: Lang,
  /** Slash-command completion: the help lists every command (`complete('')`). */
  complete: (prefix: string) => readonly string[],
): OverlayRows | undefined {
  const { overlay, detailId } = open;
  const entry = useThrottledStore(
    store,
    (s) => (overlay === 'detail' ? detailEntry(s, detailId) : undefined),
    sameEntry,
  );
  const help = overlay === 'help';
  // The keys show at once; the commands join them when their table has loaded.
  const commands = useCommandTable(help);
  return useMemo(() => {
    if (help)
      return {
        title: t(lang, 'help.title'),
        rows: helpOverlayRows(lang, width, commandHelp(commands ?? [], lang, complete)),
      };
    if (overlay !== 'detail') return undefined;
    if (!entry)
      return {
        title: t(lang, 'pane.tools'),
        rows: [{ text: t(lang, 'tool.noCalls'), tone: 'dim' }],
      };
    return { title: detailTitle(entry, lang), rows: detailRows(entry, width, lang) };
  }, [help, overlay, entry, width, lang, complete, commands]);
}

/** The call the detail shows: in the store's log, or read back from the history (scrolled back). */
function detailEntry(s: AgentStoreState, id: string | undefined): ToolLogEntry | undefined {
  return (
    s.toolLog.find((e) => e.callId === id) ??
    toolLogFromHistory(s.messages).find((e) => e.callId === id)
  );
}

/** A call read back again is a new object with the same content: no new frame for it. */
function sameEntry(a: ToolLogEntry | undefined, b: ToolLogEntry | undefined): boolean {
  return (
    a === b ||
    (a !== undefined &&
      b !== undefined &&
      a.callId === b.callId &&
      a.status === b.status &&
      a.full === b.full)
  );
}
