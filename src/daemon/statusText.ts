/**
 * `cogito status` in words, the way the screen's status bar says them (issue 33.6): the
 * bar's own state label (`Resting · next look in 4m`, `Your turn`, `Paused · <reason>`), times
 * in the user's local time, counts rounded (`1.2k tokens`), in the user's language. The
 * agent sends facts (epoch times, raw counts); the words are made here, where the user is.
 */
import { localTime } from '../agent/activityText.js';
import { cycleText, stateLabel, type LabelFacts } from '../agent/stateLabel.js';

type MachineState = LabelFacts['machine'];

/** One line of the listing: a live agent's status, or what is known of a gone one. */
export type StatusRow =
  | (AgentStatus & { running: true })
  | {
      running: false;
      workspace: string;
      pid: number;
      state: 'gone';
      started: string;
      /** Alive but not answering: its entry is kept (it may be starting). */
      kept?: true;
    };
import { formatTokens } from '../core/counts.js';
import { t, type Lang } from '../i18n/messages.js';
import type { AgentStatus } from './protocol.js';

const MACHINE_STATES: readonly string[] = [
  'THINKING',
  'AWAITING_INPUT',
  'PAUSED',
  'AWAITING_APPROVAL',
] satisfies MachineState[];

/** An ISO time as the user's clock shows it; what does not parse is shown as it came. */
function when(iso: string, now: number): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? iso : localTime(at, now);
}

/** The state line: the bar's label, and since when unless the label names its own time. */
function stateLine(r: StatusRow & { running: true }, lang: Lang, now: number): string {
  const machine = (r.bar?.machine ?? r.state) as MachineState;
  // An agent of an older version sends no bar: its state word in the user's language still.
  const label = r.bar
    ? stateLabel(r.bar, now, lang)
    : MACHINE_STATES.includes(machine)
      ? stateLabel(
          {
            machine,
            streaming: false,
            toolsRunning: 0,
            nextTurnAt: undefined,
            pauseReason: undefined,
            activity: r.activity,
          },
          now,
          lang,
        )
      : r.state;
  const a = r.activity;
  const parts = [label];
  // The bar's label names the question's time itself; every other state gets its own.
  if (!(a?.state === 'waiting' && a.question !== undefined))
    parts.push(t(lang, 'statusCmd.since', { time: when(r.since, now) }));
  // A question that has waited long enough lets changes wake looks again: worth saying.
  if (a?.state === 'waiting' && a.watchFrom !== undefined)
    parts.push(
      a.watchFrom <= now
        ? t(lang, 'activity.watching')
        : t(lang, 'activity.watchFrom', { time: localTime(a.watchFrom, now) }),
    );
  return parts.join(' · ');
}

/** One agent's lines: its folder, its state, its process, its counts. */
export function describeRow(
  r: StatusRow,
  lang: Lang,
  cmd: string,
  now: number = Date.now(),
): string {
  if (!r.running) {
    const line = r.kept
      ? t(lang, 'statusCmd.silent', { pid: r.pid, cmd, quoted: JSON.stringify(r.workspace) })
      : t(lang, 'statusCmd.gone', { pid: r.pid });
    return `${r.workspace}\n  ${line}`;
  }
  const counts = [
    ...(r.bar
      ? [
          cycleText(r.bar.cycle, r.bar.maxCycles, lang),
          t(lang, 'statusCmd.session', { n: formatTokens(r.bar.sessionTokens) }),
        ]
      : []),
    t(lang, 'statusCmd.day', { n: formatTokens(r.tokensToday) }),
  ];
  return [
    r.workspace,
    `  ● ${stateLine(r, lang, now)}`,
    `  ${t(lang, 'statusCmd.process', {
      pid: r.pid,
      started: when(r.started, now),
      last: when(r.lastActivity, now),
    })}`,
    `  ${counts.join(' · ')}`,
  ].join('\n');
}
