import React, { useEffect, useState } from 'react';
import { Box, Text } from 'ink';
import type { AgentStore, AgentStoreState } from '../src/store/agentStore.js';
import type { MachineState } from '../src/machine/machine.js';
import { t, type Lang } from '../src/i18n/messages.js';
import { useSpinner } from './hooks/useSpinner.js';
import { shallowEqual, useStoreNow, useThrottledStore } from './hooks/useThrottledStore.js';
import { useLang } from './i18n.js';
import { formatTokens, shortenPath } from './text/format.js';
import { sanitize } from './text/sanitize.js';
import { displayWidth, truncate } from './text/wrap.js';
import type { Tone } from './panes/rows.js';
import { cycleText, stateLabel } from '../src/agent/stateLabel.js';

/** The clock, re-read every `intervalMs` while `active` (a countdown); still otherwise. */
function useNow(active: boolean, intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const id = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(id);
  }, [active, intervalMs]);
  return now;
}

export interface StatusMessage {
  text: string;
  tone: Tone;
}

export interface StatusBarProps {
  store: AgentStore;
  width: number;
  workspace: string;
  /** The second line (pause reason, a fresh notice), when the layout has room for it. */
  message?: StatusMessage | undefined;
}

const STATE_COLOR: Record<MachineState, string> = {
  THINKING: 'green',
  AWAITING_INPUT: 'cyan',
  PAUSED: 'yellow',
  AWAITING_APPROVAL: 'magenta',
};

const MESSAGE_COLOR: Partial<Record<Tone, string>> = {
  warn: 'yellow',
  error: 'red',
  notice: 'blue',
};

interface Segment {
  text: string;
  /** Lower goes first when the line is too narrow. */
  keep: number;
  color?: string;
}

/** Keeps the most important segments that fit in `width`, in their original order. */
export function fitSegments(segs: readonly Segment[], width: number, sep: string): Segment[] {
  const chosen = new Set(segs.map((_, i) => i));
  const total = (): number =>
    [...chosen].reduce((n, i) => n + displayWidth(segs[i]!.text), 0) +
    Math.max(0, chosen.size - 1) * displayWidth(sep);
  const byKeep = segs.map((s, i) => ({ i, keep: s.keep })).sort((a, b) => a.keep - b.keep);
  for (const { i } of byKeep) {
    if (total() <= width || chosen.size <= 1) break;
    chosen.delete(i);
  }
  return segs.filter((_, i) => chosen.has(i));
}

/** What the status line is drawn from. */
type StatusFields = Pick<
  AgentStoreState,
  | 'machine'
  | 'streaming'
  | 'persona'
  | 'model'
  | 'cycle'
  | 'contextTokens'
  | 'contextWindow'
  | 'sessionTokens'
  | 'maxCycles'
  | 'budgetPerHour'
  | 'budgetUsed'
  | 'filesChanged'
  | 'commandsRunning'
  | 'budgetPerDay'
  | 'budgetUsedDay'
  | 'sessionCachedTokens'
  | 'toolsRunning'
  | 'nextTurnAt'
  | 'retryAt'
  | 'pauseReason'
  | 'preparing'
  | 'activity'
>;

const pickFields = (st: AgentStoreState): StatusFields => ({
  machine: st.machine,
  streaming: st.streaming,
  persona: st.persona,
  model: st.model,
  cycle: st.cycle,
  contextTokens: st.contextTokens,
  contextWindow: st.contextWindow,
  sessionTokens: st.sessionTokens,
  maxCycles: st.maxCycles,
  budgetPerHour: st.budgetPerHour,
  budgetUsed: st.budgetUsed,
  filesChanged: st.filesChanged,
  commandsRunning: st.commandsRunning,
  budgetPerDay: st.budgetPerDay,
  budgetUsedDay: st.budgetUsedDay,
  sessionCachedTokens: st.sessionCachedTokens,
  toolsRunning: st.toolsRunning,
  nextTurnAt: st.nextTurnAt,
  retryAt: st.retryAt,
  pauseReason: st.pauseReason,
  preparing: st.preparing,
  activity: st.activity,
});

/** Yellow once `used` passes 80 % of `limit`. */
const nearLimit = (used: number, limit: number): { color?: string } =>
  limit > 0 && used > 0.8 * limit ? { color: 'yellow' } : {};

/** The cycle and token segments: the cycle, the context window, the session's tokens. */
function countSegments(s: StatusFields, lang: Lang): Segment[] {
  const window = s.contextWindow > 0 ? `/${formatTokens(s.contextWindow)}` : '';
  const cached =
    s.sessionCachedTokens > 0
      ? ` (${t(lang, 'status.cached', { n: formatTokens(s.sessionCachedTokens) })})`
      : '';
  return [
    { text: cycleText(s.cycle, s.maxCycles, lang), keep: 30 },
    {
      // Out of the model's window when known; yellow past 80 %, when compression is near.
      text: `${t(lang, 'status.context')} ${formatTokens(s.contextTokens)}${window}`,
      keep: 20,
      ...(s.contextTokens > 0 ? nearLimit(s.contextTokens, s.contextWindow) : {}),
    },
    { text: `${t(lang, 'status.session')} ${formatTokens(s.sessionTokens)}${cached}`, keep: 10 },
  ];
}

/** The budgets (when set) and the files changed (once there are any). */
function limitSegments(s: StatusFields, lang: Lang): Segment[] {
  const out: Segment[] = [];
  if (s.budgetPerDay > 0)
    out.push({
      text: t(lang, 'status.budgetDayOf', {
        used: formatTokens(s.budgetUsedDay),
        limit: formatTokens(s.budgetPerDay),
      }),
      keep: 14,
      ...nearLimit(s.budgetUsedDay, s.budgetPerDay),
    });
  // Shown once the agent changed something: how many files /undo all would restore.
  if (s.filesChanged > 0)
    out.push({ text: t(lang, 'status.filesChanged', { count: s.filesChanged }), keep: 25 });
  // Background commands keep running between turns: the user sees that they are there.
  if (s.commandsRunning > 0)
    out.push({
      text: t(lang, 'status.commandsRunning', { count: s.commandsRunning }),
      keep: 35,
      color: 'cyan',
    });
  if (s.budgetPerHour > 0) {
    const of = t(lang, 'status.budgetOf', {
      used: formatTokens(s.budgetUsed),
      limit: formatTokens(s.budgetPerHour),
    });
    out.push({
      text: `${t(lang, 'status.budget')} ${of}`,
      keep: 15,
      ...nearLimit(s.budgetUsed, s.budgetPerHour),
    });
  }
  return out;
}

/** State, persona, model, workspace, cycle and tokens on one line; a message below it. */
export function StatusBar(p: StatusBarProps): React.JSX.Element {
  const lang = useLang();
  const throttled = useThrottledStore(p.store, pickFields, shallowEqual);
  // The state is read at once (useStoreNow says why): the interrupt key's own frame shows
  // "Your turn", not the frame after the stream has wound down.
  const machine = useStoreNow(p.store, (st) => st.machine);
  const s = machine === throttled.machine ? throttled : { ...throttled, machine };
  // The spinner turns here, not at the root, so its ticks re-render this bar only.
  const spinner = useSpinner(s.streaming);
  const sep = ' │ ';
  // The countdown ticks once a second while resting or waiting to retry, not at all otherwise.
  const now = useNow(
    s.machine === 'THINKING' &&
      (s.nextTurnAt !== undefined || s.retryAt !== undefined) &&
      !s.streaming,
  );
  const state = `● ${stateLabel(s, now, lang)}${s.streaming ? ` ${spinner}` : ''}`;
  const segs: Segment[] = [
    { text: state, keep: 100, color: STATE_COLOR[s.machine] },
    ...(s.persona ? [{ text: s.persona, keep: 50 }] : []),
    ...(s.model ? [{ text: s.model, keep: 60 }] : []),
    ...(p.workspace
      ? [
          {
            // A folder name is shown with its invisible characters marked, like every path.
            text: shortenPath(sanitize(p.workspace), Math.max(8, Math.floor(p.width / 4))),
            keep: 40,
          },
        ]
      : []),
    ...countSegments(s, lang),
    ...limitSegments(s, lang),
  ];
  const shown = fitSegments(segs, p.width, sep);
  return (
    <Box flexDirection="column" width={p.width}>
      <Text wrap="truncate-end">
        {shown.map((seg, i) => (
          <Text key={i}>
            {i > 0 && <Text dimColor>{sep}</Text>}
            <Text color={seg.color} bold={seg.keep === 100}>
              {truncate(seg.text, p.width)}
            </Text>
          </Text>
        ))}
      </Text>
      {p.message && (
        <Text
          wrap="truncate-end"
          color={MESSAGE_COLOR[p.message.tone]}
          dimColor={p.message.tone === 'dim'}
        >
          {truncate(p.message.text, p.width)}
        </Text>
      )}
    </Box>
  );
}
