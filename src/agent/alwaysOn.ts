import type { HistoryMessage } from '../core/messages.js';
import type { Timers } from '../scheduler/scheduler.js';
import type { Lang } from '../i18n/messages.js';
import type { TurnTrigger } from '../api/trace.js';
import type { TurnFacts } from './respond.js';
import { Pacing } from '../scheduler/pacing.js';
import { Reminders, type Reminder } from '../reminders/reminders.js';
import { addChange, changeCount, emptyChanges, type WorkspaceChanges } from '../watch/changes.js';
import { TokenBudget, type BudgetSettings } from '../memory/tokenBudget.js';
import { ChangeWakes, DEFAULT_CHANGE_WAKES, type ChangeWakeSettings } from './changeWakes.js';
import { Novelty } from './novelty.js';
import { OpenQuestion } from './openQuestion.js';
import { wakeNote, type QuestionNote } from './wakeNote.js';

/** Past this many notes, the ones whose message left the history are dropped. */
const PRUNE_AT = 2000;

/**
 * The per-turn notes of this run, each pinned after the history message that was last when
 * its turn was built. Kept in memory only: after a restart the first request misses the
 * provider's cache once, and every request after that extends the previous one again.
 */
class TurnNotes {
  private readonly byAnchor = new Map<string, string[]>();
  /** The notes by anchor, as `buildChatMessages` takes them. */
  readonly map: ReadonlyMap<string, readonly string[]> = this.byAnchor;
  private count = 0;

  /** Pins `note` after the last message of `history` (or before all of them when empty). */
  add(history: readonly HistoryMessage[], note: string): void {
    const anchor = history.at(-1)?.id ?? '';
    const list = this.byAnchor.get(anchor);
    if (list) list.push(note);
    else this.byAnchor.set(anchor, [note]);
    this.count += 1;
    if (this.count > PRUNE_AT) this.prune(history);
  }

  /** Forgets everything (a new session, or a compaction that rewrote the history). */
  clear(): void {
    this.byAnchor.clear();
    this.count = 0;
  }

  private prune(history: readonly HistoryMessage[]): void {
    const ids = new Set(history.map((m) => m.id));
    for (const key of [...this.byAnchor.keys()]) {
      if (key !== '' && !ids.has(key)) this.byAnchor.delete(key);
    }
    this.count = [...this.byAnchor.values()].reduce((n, l) => n + l.length, 0);
  }
}

/** The shortest time between two wake-ups for reminders the model set for itself. */
export const MODEL_REMINDER_FLOOR_MS = 4 * 60_000;

export interface AlwaysOnSettings {
  lang: Lang;
  thinkIntervalMs: number;
  /** pacing.maxIntervalMs */
  maxIntervalMs: number;
  tokenBudgetPerHour: number;
  tokenBudgetPerDay: number;
  /** pacing.cacheTtlSeconds in ms (0 or absent: no prompt cache known). */
  cacheTtlMs?: number;
  /** watch.minWakeIntervalMs and watch.maxWakesPerHour (absent: 30 s and 20). */
  changeWakes?: ChangeWakeSettings;
  /** watch.resumeAfterWaitMs (absent: 0, an autonomous question waits for the user alone). */
  resumeAfterWaitMs?: number;
}

export interface AlwaysOnDeps {
  settings(): AlwaysOnSettings;
  /** The agent's settings object, as the budgets read it before each request. */
  budget: Readonly<BudgetSettings>;
  now(): number;
  /** The clock the change wake-ups' one timer runs on (the scheduler's). */
  timers: Timers;
  /** A cheap fingerprint of the workspace tree (see `treeFingerprint`); none: never skip. */
  fingerprint?(): Promise<string>;
  /**
   * While a watcher runs (its first scan done), how long it may take to report a change by
   * name (its debounce, with room); undefined without one.
   */
  watchDelayMs?(): number | undefined;
  /** Shared with the `remind` tool; a fresh set when absent. */
  reminders?: Reminders;
  /** The folder memory's ask to tidy, added to autonomous notes when it says something. */
  memoryNudge?(): string | undefined;
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
  /** The floor and hourly cap on wake-ups for workspace changes. */
  readonly changeWakes: ChangeWakes;
  /** The question asked with [WAIT] that the user has not answered yet. */
  readonly question: OpenQuestion;
  private readonly novelty: Novelty;
  private changes: WorkspaceChanges = emptyChanges();
  /** When a turn last took a reminder the model had set (for `nextDueAt`). */
  private modelWokeAt = -Infinity;
  /** The state of things when a cycle last found nothing new; undefined once anything moved. */
  private idleMark: string | undefined;

  constructor(private readonly deps: AlwaysOnDeps) {
    this.pacing = new Pacing(() => deps.settings());
    this.reminders = deps.reminders ?? new Reminders();
    this.budget = new TokenBudget(deps.budget, deps.timers);
    this.changeWakes = new ChangeWakes(
      () => deps.settings().changeWakes ?? DEFAULT_CHANGE_WAKES,
      deps.timers,
    );
    this.novelty = new Novelty();
    this.question = new OpenQuestion(() => deps.settings().resumeAfterWaitMs ?? 0, deps.timers);
  }

  /**
   * When the next reminder may wake the agent: a user's on time; one the model set for
   * itself no sooner than `MODEL_REMINDER_FLOOR_MS` after the last turn that took a model
   * reminder, so a model that sets a reminder a minute ahead in every turn cannot start a
   * chain of wake-ups a minute apart (due reminders come together in one turn).
   */
  nextDueAt(): number | undefined {
    let at: number | undefined;
    for (const r of this.reminders.takeable()) {
      const floor = this.modelWokeAt + MODEL_REMINDER_FLOOR_MS;
      const when = r.by === 'model' ? Math.max(r.at, floor) : r.at;
      if (at === undefined || when < at) at = when;
    }
    return at;
  }

  /**
   * The watcher saw these changes: kept for the next turn's note. They do not reset the pace:
   * whether the turn they start found anything decides that, so a busy file cannot hold the
   * agent at its fastest pace (the wake-ups themselves go through `changeWakes`).
   */
  noteChanges(batch: WorkspaceChanges): void {
    for (const p of batch.created) addChange(this.changes, 'created', p);
    for (const p of batch.modified) addChange(this.changes, 'modified', p);
    for (const p of batch.removed) addChange(this.changes, 'removed', p);
    this.question.noteChanges(batch);
    this.idleMark = undefined;
  }

  /** The changed tree timed looks leave to the watcher, and since when (see skipLook). */
  private deferred: { mark: string; at: number } | undefined;

  /**
   * True while resting costs nothing: the last cycle found nothing new and nothing moved
   * since, so a timed look is skipped without a request and only a change, a reminder or
   * the user brings the next one.
   */
  get resting(): boolean {
    return this.idleMark !== undefined;
  }

  get pendingChanges(): number {
    return changeCount(this.changes);
  }

  /** A wake-up of kind user, schedule or resume: back to the think interval. */
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
    const mark = await this.mark(inbox);
    if (mark !== this.idleMark) {
      // A change the watcher has not reported yet (its batch waits out the debounce): this
      // look leaves it to the watcher's wake, whose note names what changed. A change still
      // unreported past the watcher's delay (a tree past its cap) is looked at.
      const delay = this.deps.watchDelayMs?.();
      if (delay !== undefined) {
        const now = this.deps.now();
        if (this.deferred?.mark !== mark) this.deferred = { mark, at: now };
        if (now - this.deferred.at < delay) return true;
      }
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
    const due = this.reminders.takeDue(this.deps.now());
    if (due.some((r) => r.by === 'model')) this.modelWokeAt = this.deps.now();
    // A change or a reminder the model set for itself does not reset the pace: what the
    // turn finds decides (or a model could keep itself busy with a reminder a minute).
    if (paceResets(trigger, due)) this.wakeUp();
    const changes = this.changes;
    this.changes = emptyChanges();
    if (changeCount(changes) > 0) this.changeWakes.seen();
    const question = this.questionNote(trigger);
    const userLast = trigger === 'user' || history.at(-1)?.role === 'user';
    const tidy = userLast ? undefined : this.deps.memoryNudge?.();
    const note = wakeNote({
      trigger,
      cycle,
      now: this.deps.now(),
      userLast,
      changes,
      ...(tidy ? { tidy } : {}),
      reminders: due.map(
        (r) => `${r.what} (set for ${new Date(r.at).toISOString().slice(0, 16)}Z)`,
      ),
      ...(question ? { question } : {}),
    });
    if (note !== undefined) this.notes.add(history, note);
    return note;
  }

  /**
   * What this turn's note says of the open question: the user's message answers it (named
   * when looks came between, with all that arrived since it was asked); an empty Enter or a
   * resume lets it go; a look while it watches is told it is still open.
   */
  private questionNote(trigger: TurnTrigger): QuestionNote | undefined {
    if (trigger === 'user' || trigger === 'resume') {
      const answered = this.question.close();
      if (trigger !== 'user' || !answered || answered.looks === 0) return undefined;
      return { kind: 'answered', ...answered.question, arrived: answered.arrived };
    }
    const open = this.question.facts;
    if (!open) return undefined;
    this.question.looked();
    return this.question.watching() ? { kind: 'open', ...open } : undefined;
  }

  /** After an autonomous cycle: nothing new rests longer, anything new resets the pace. */
  async afterCycle(
    trigger: TurnTrigger,
    result: Pick<TurnFacts, 'outcome' | 'results'>,
    inbox: number,
  ): Promise<void> {
    if (result.outcome !== 'ok') return;
    if (trigger === 'user') {
      this.pacing.reset();
      return;
    }
    if (this.novelty.judge(result.results)) {
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

/** Whether a turn of this kind starts at the think interval again. */
function paceResets(trigger: TurnTrigger, due: readonly Reminder[]): boolean {
  if (trigger === 'timer' || trigger === 'change') return false;
  if (trigger === 'schedule') return due.some((r) => r.by !== 'model');
  return true;
}
