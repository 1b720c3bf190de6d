import { t, type Lang } from '../i18n/messages.js';
import type { MachineState } from '../machine/machine.js';
import { shortDuration } from '../core/counts.js';
import type { Activity } from '../api/activity.js';
import { localTime } from './activityText.js';

/** The facts the status bar's state label is made of (all in the store). */
export interface LabelFacts {
  machine: MachineState;
  /** A request is streaming. */
  streaming: boolean;
  /** Tool calls running now. */
  toolsRunning: number;
  /** When the scheduler looks next (epoch ms), if it is waiting. */
  nextTurnAt: number | undefined;
  pauseReason: string | undefined;
  /** When a failed request is tried again, while its back-off runs. */
  retryAt?: number | undefined;
  /** What the request in preparation waits for (MCP servers connecting). */
  preparing?: string | undefined;
  /** The agent's own word on what it does (resting free, the open question). */
  activity?: Activity | undefined;
}

/** The reason cut to fit a status line: the full text stays on the line below. */
const REASON_CHARS = 60;

/** "4m" from a minute up, "12s" under it. */
export function untilText(ms: number): string {
  if (ms < 60_000) return `${Math.max(0, Math.ceil(ms / 1000))}s`;
  return shortDuration(ms);
}

/**
 * What the agent is doing, in words: `Thinking` only while a request or a tool is in flight,
 * `Retrying · next try in 3s` while a failed request waits its back-off,
 * `Resting · next look in 4m` while the scheduler waits, `Resting · wakes on a change` while
 * the timed looks cost nothing, `Thinking · connecting MCP: fx…` while the first request
 * waits for MCP servers, `Your turn` (`Your turn · waiting for your answer since 09:12`
 * after a question), `Paused · <reason>`, `Needs approval`. Pure: the bar passes the clock in.
 */
export function stateLabel(f: LabelFacts, now: number, lang: Lang): string {
  switch (f.machine) {
    case 'AWAITING_INPUT': {
      const a = f.activity;
      if (a?.state === 'waiting' && a.question)
        return t(lang, 'state.waitingAnswer', { time: localTime(a.question.at, now) });
      return t(lang, 'state.AWAITING_INPUT');
    }
    case 'AWAITING_APPROVAL':
      return t(lang, `state.${f.machine}`);
    case 'PAUSED': {
      // An app started --paused, still starting (components/lateAgent.ts).
      if (f.preparing !== undefined) return `${t(lang, 'state.PAUSED')} · ${f.preparing}`;
      if (!f.pauseReason) return t(lang, 'state.PAUSED');
      const reason =
        f.pauseReason.length > REASON_CHARS
          ? `${f.pauseReason.slice(0, REASON_CHARS - 1)}…`
          : f.pauseReason;
      return t(lang, 'state.pausedBecause', { reason });
    }
    case 'THINKING': {
      if (f.preparing !== undefined) return `${t(lang, 'state.THINKING')} · ${f.preparing}`;
      const inFlight = f.streaming || f.toolsRunning > 0;
      // A retry's back-off is still the same turn at work, not a rest and not the user's turn.
      if (!inFlight && f.retryAt !== undefined)
        return t(lang, 'state.retrying', { in: untilText(f.retryAt - now) });
      if (!inFlight && f.activity?.state === 'resting') {
        const at = f.activity.nextLookAt;
        if (at === undefined) return t(lang, 'state.restingOnChange');
        return t(lang, 'state.resting', { in: untilText(at - now) });
      }
      if (!inFlight && f.nextTurnAt !== undefined) {
        return t(lang, 'state.resting', { in: untilText(f.nextTurnAt - now) });
      }
      return t(lang, 'state.THINKING');
    }
  }
}

/**
 * What a front end away from the store needs to say what the status bar says (`cogito
 * status` reads it over the agent's socket): the label's facts and the counts beside it.
 */
export interface BarFacts extends LabelFacts {
  cycle: number;
  /** 0: no cycle limit. */
  maxCycles: number;
  sessionTokens: number;
}

/** The store's fields {@link BarFacts} names, as plain data. */
export function barFacts(s: BarFacts): BarFacts {
  return {
    machine: s.machine,
    streaming: s.streaming,
    toolsRunning: s.toolsRunning,
    nextTurnAt: s.nextTurnAt,
    retryAt: s.retryAt,
    pauseReason: s.pauseReason,
    preparing: s.preparing,
    activity: s.activity,
    cycle: s.cycle,
    maxCycles: s.maxCycles,
    sessionTokens: s.sessionTokens,
  };
}

/** `Cycle 3/50` (`Cycle 3/∞` with no limit), as the status bar shows it. */
export function cycleText(cycle: number, maxCycles: number, lang: Lang): string {
  const of =
    maxCycles > 0
      ? t(lang, 'status.cycleOf', { n: cycle, max: maxCycles })
      : t(lang, 'status.cycleUnlimited', { n: cycle });
  return `${t(lang, 'status.cycle')} ${of}`;
}
