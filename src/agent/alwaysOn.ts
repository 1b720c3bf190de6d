import type { HistoryMessage } from '../core/messages.js';
import type { Lang } from '../i18n/messages.js';
import type { TurnTrigger } from '../pipeline/phases.js';
import type { TurnResult } from '../pipeline/turn.js';
import { Pacing } from '../scheduler/pacing.js';
import { Reminders } from '../schedule/reminders.js';
import { addChange, changeCount, emptyChanges, type WorkspaceChanges } from '../watch/changes.js';
import { TokenBudget } from './budget.js';
import { Novelty } from './novelty.js';
import { TurnNotes } from './turnNotes.js';
import { wakeNote } from './wakeNote.js';

export interface AlwaysOnSettings {
  lang: Lang;
  thinkIntervalMs: number;
  /** pacing.maxIntervalMs */
  maxIntervalMs: number;
  tokenBudgetPerHour: number;
  tokenBudgetPerDay: number;
}

export interface AlwaysOnDeps {
  settings(): AlwaysOnSettings;
  now(): number;
  /** A cheap fingerprint of the workspace tree (see `treeFingerprint`); none: never skip. */
  fingerprint?(): Promise<string>;
  /** Shared with the `remind` tool; a fresh set when absent. */
  reminders?: Reminders;
}

/**
 * What keeps a background agent cheap, in one place: the per-turn notes (so the prefix
 * stays byte-identical), pacing, the zero-token idle path, the budgets checked before a
 * request, the reminders and the workspace changes waiting for the next turn.
 */
export class AlwaysOn {
  readonly pacing: Pacing;
  readonly budget: TokenBudget;
  readonly reminders: Reminders;
  readonly notes = new TurnNotes();
  private readonly novelty = new Novelty();
  private changes: WorkspaceChanges = emptyChanges();
  /** The state of things when a cycle last found nothing new; undefined once anything moved. */
  private idleMark: string | undefined;

  constructor(private readonly deps: AlwaysOnDeps) {
    this.pacing = new Pacing(() => deps.settings());
    this.reminders = deps.reminders ?? new Reminders();
    this.budget = new TokenBudget(() => deps.settings(), deps.now);
  }

  /** The watcher saw these changes: kept for the next turn's note. */
  noteChanges(batch: WorkspaceChanges): void {
    for (const p of batch.created) addChange(this.changes, 'created', p);
    for (const p of batch.modified) addChange(this.changes, 'modified', p);
    for (const p of batch.removed) addChange(this.changes, 'removed', p);
    this.wakeUp();
  }

  get pendingChanges(): number {
    return changeCount(this.changes);
  }

  /** A wake-up of kind user, change, schedule or resume: back to the think interval. */
  wakeUp(): void {
    this.pacing.reset();
    this.idleMark = undefined;
  }

  /**
   * The zero-token idle path: true when this timer wake-up can be skipped, because the last
   * cycle found nothing new and nothing (tree, reminders, inbox) changed since.
   */
  async skipLook(trigger: TurnTrigger, inbox: number): Promise<boolean> {
    if (trigger !== 'timer' || this.idleMark === undefined || !this.deps.fingerprint) {
      return false;
    }
    if ((await this.mark(inbox)) !== this.idleMark) {
      this.idleMark = undefined;
      return false;
    }
    this.pacing.nothingNew();
    return true;
  }

  /**
   * This turn's note (time, reason, due reminders, workspace changes), pinned after the
   * current last message so later requests carry it in the same place.
   */
  noteFor(
    trigger: TurnTrigger,
    cycle: number,
    history: readonly HistoryMessage[],
  ): string | undefined {
    if (trigger !== 'timer' && trigger !== 'start') this.wakeUp();
    const due = this.reminders.takeDue(this.deps.now());
    const changes = this.changes;
    this.changes = emptyChanges();
    const note = wakeNote({
      trigger,
      cycle,
      now: this.deps.now(),
      userLast: trigger === 'user' || history.at(-1)?.role === 'user',
      changes,
      reminders: due.map(
        (r) => `${r.what} (set for ${new Date(r.at).toISOString().slice(0, 16)}Z)`,
      ),
    });
    if (note !== undefined) this.notes.add(history, note);
    return note;
  }

  /** After an autonomous cycle: nothing new rests longer, anything new resets the pace. */
  async afterCycle(trigger: TurnTrigger, result: TurnResult, inbox: number): Promise<void> {
    if (result.outcome !== 'ok') return;
    if (trigger === 'user') {
      this.novelty.reset();
      this.pacing.reset();
      return;
    }
    if (this.novelty.judge(result.reply, result.results)) {
      this.pacing.reset();
      this.idleMark = undefined;
      return;
    }
    this.pacing.nothingNew();
    this.idleMark = this.deps.fingerprint ? await this.mark(inbox) : undefined;
  }

  private async mark(inbox: number): Promise<string> {
    const tree = await this.deps.fingerprint!();
    return `${tree}|${this.reminders.nextAt() ?? '-'}|${inbox}|${changeCount(this.changes)}`;
  }
}
