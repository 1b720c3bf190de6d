/**
 * Facts from outside the turn that the agent reports as its own events: the tokens spent
 * before this run, the change journal's file count and the cycle ledger. The agent wires
 * these at construction and hands them its private emit; nothing else speaks on its bus.
 */
import type { SessionFeeds } from './agentDeps.js';
import { DAY_MS, HOUR_MS, type TokenBudget } from '../memory/tokenBudget.js';
import type { AgentEvent, AgentListener } from '../api/events.js';

/** What the feeds get from the agent that wires them. */
export interface FeedReporter {
  emit(event: AgentEvent): void;
  notice(text: string): void;
  /** A write of the ledger failed: the agent pauses with the reason. */
  writeFailed(problem: string): void;
  subscribe(listener: AgentListener): unknown;
  /** The history points at another session: the screen rebuilds what it shows of one. */
  historyChanged(): void;
}

/** The budgets start from what was spent before this run (all sessions of the home). */
export function seedBudget(
  budget: Pick<TokenBudget, 'seed' | 'used'>,
  spent: readonly { at: number; tokens: number }[],
  emit: (event: AgentEvent) => void,
): void {
  budget.seed(spent);
  emit({ type: 'budget', usedLastHour: budget.used(HOUR_MS), usedLastDay: budget.used(DAY_MS) });
}

/**
 * The journal's file count and the cycle ledger follow the current session. After a switch:
 * the history first, then the new session's ledger (the journal has switched already: the
 * root subscribed it first).
 */
export function wireFeeds(feeds: SessionFeeds, to: FeedReporter): void {
  const { files, ledger, commands } = feeds;
  if (commands) {
    let last = -1;
    const report = (): void => {
      // Every start and end is told; the same count twice is not news.
      const count = commands.count();
      if (count !== last) to.emit({ type: 'commands_running', count });
      last = count;
    };
    commands.onChange(report);
    report();
  }
  if (files) {
    const report = (): void => to.emit({ type: 'files_changed', count: files.count() });
    files.onChange(report);
    report();
  }
  const openLedger = (): void => {
    if (!ledger) return;
    to.emit({
      type: 'ledger_loaded',
      records: ledger.open(
        (message) => to.notice(message),
        (problem) => to.writeFailed(problem),
      ),
    });
  };
  if (ledger) {
    to.subscribe(
      ledger.recorder((record) => {
        ledger.append(record);
        to.emit({ type: 'cycle_recorded', record });
      }),
    );
  }
  feeds.onSwitch(() => {
    to.historyChanged();
    openLedger();
  });
  openLedger();
}
