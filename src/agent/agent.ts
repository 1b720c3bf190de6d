import type { HistoryMessage } from '../core/messages.js';
import { can, type MachineEvent, type MachineState } from '../machine/machine.js';
import { ApprovalGate } from './approvalGate.js';
import { TokenCounter } from '../memory/tokenCounter.js';
import type { HistoryPort } from '../pipeline/turn.js';
import type { Provider } from '../providers/types.js';
import { Scheduler } from '../scheduler/scheduler.js';
import type { AgentStore } from '../store/agentStore.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolKind } from '../tools/types.js';
import type { Workspace } from '../tools/workspace.js';
import type { ApprovalPolicy } from '../pipeline/toolRunner.js';
import {
  AgentEmitter,
  type AgentEvent,
  type AgentListener,
  type ApprovalAnswer,
} from '../api/events.js';
import { SessionSafety } from '../tools/sessionSafety.js';
import type { AlwaysOn } from './alwaysOn.js';
import type { Reminder } from '../reminders/reminders.js';
import type { WorkspaceChanges } from '../watch/changes.js';
import type { OwnWrites } from '../watch/ownWrites.js';
import type { WorkspaceWatcher } from '../watch/workspaceWatcher.js';
import { createAlwaysOn, startWatcher } from './alwaysOnWiring.js';
import type { AgentDeps, AgentSettings } from './agentDeps.js';
import { InputQueue, isCommand } from './inputQueue.js';
import { TurnRunner } from './turnRunner.js';
import { t } from '../i18n/messages.js';

export type { AgentDeps, AgentSettings, CommandHandler } from './agentDeps.js';

/**
 * The agent: the machine (held in the store, moved only by the store's `dispatch`), the
 * scheduler and the turn pipeline wired together. Everything it does is reported as events;
 * the store's reducer is subscribed first, so the store is current when other listeners run.
 * The agent decides from the store's machine state and its own counts, never from what the
 * store keeps for the screen.
 */
export class Agent {
  // A listener that throws is reported as a notice, straight to the store (not through the
  // emitter, which could throw again).
  private readonly emitter = new AgentEmitter((err, event) =>
    this.deps.store.getState().apply({
      type: 'notice',
      level: 'warn',
      text: `internal: a listener failed on ${event.type}: ${err instanceof Error ? err.message : String(err)}`,
    }),
  );
  private readonly scheduler: Scheduler;
  private readonly inputs = new InputQueue();
  private readonly turns: TurnRunner;
  private readonly approvals: ApprovalGate;
  /** Redactor, read index and data boundary for this agent's whole session. */
  readonly safety: SessionSafety;
  private started = false;
  private watcher: WorkspaceWatcher | undefined;
  /** Pacing, budgets, reminders, per-turn notes and pending workspace changes. */
  readonly alwaysOn: AlwaysOn;
  /** Paths the agent's own write tools touch, so the watcher ignores them. */
  readonly ownWrites: OwnWrites;
  provider: Provider;
  history: HistoryPort;
  readonly settings: AgentSettings;
  readonly counter: TokenCounter;

  constructor(private readonly deps: AgentDeps) {
    this.provider = deps.provider;
    this.history = deps.history;
    this.settings = deps.settings;
    this.counter = deps.counter ?? new TokenCounter();
    this.safety = new SessionSafety(deps.secrets ?? []);
    this.emitter.subscribe((e) => deps.store.getState().apply(e));
    ({ alwaysOn: this.alwaysOn, ownWrites: this.ownWrites } = createAlwaysOn(
      deps,
      () => this.settings,
    ));
    this.approvals = new ApprovalGate({
      emit: (e) => this.emit(e),
      move: (e) => this.move(e),
      state: () => this.state,
    });
    this.scheduler = this.createScheduler();
    this.turns = new TurnRunner({
      agent: this,
      deps,
      inputs: this.inputs,
      approvals: this.approvals,
      alwaysAllowed: new Set<string>(),
      failures: () => this.scheduler.consecutiveFailures,
      runUserTurn: () => this.scheduler.runUserTurn(),
      move: (e, reason) => this.move(e, reason),
    });
    this.alwaysOn.reminders.onAdded(() => this.scheduler.refresh());
  }

  private createScheduler(): Scheduler {
    return new Scheduler({
      runTurn: (trigger) => this.turns.run(trigger),
      mayThink: () => this.state === 'THINKING',
      intervalMs: () => this.alwaysOn.pacing.interval(),
      backoff: () => this.settings.backoff,
      onScheduled: (at) => this.emit({ type: 'scheduled', at }),
      nextDueAt: () => this.alwaysOn.nextDueAt(),
      // A reminder is something the user or the model asked for: it ends a [WAIT].
      mayWakeForSchedule: () => {
        if (this.state !== 'AWAITING_INPUT') return false;
        this.move('RESUME');
        return true;
      },
      ...(this.deps.timers ? { timers: this.deps.timers } : {}),
    });
  }

  /** The machine state, as the store holds it. */
  get state(): MachineState {
    return this.deps.store.getState().machine;
  }

  get store(): AgentStore {
    return this.deps.store;
  }

  get registry(): ToolRegistry {
    return this.deps.registry;
  }

  get workspace(): Workspace {
    return this.deps.workspace;
  }

  get busy(): boolean {
    return this.scheduler.isRunning;
  }

  subscribe(listener: AgentListener): () => void {
    return this.emitter.subscribe(listener);
  }

  emit(event: AgentEvent): void {
    this.emitter.emit(event);
  }

  notice(text: string, level: 'info' | 'warn' = 'info'): void {
    this.emit({ type: 'notice', level, text });
  }

  /** Loads the history into the store and starts thinking (if the machine is THINKING). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.emit({ type: 'history_loaded', messages: this.history.messages() });
    this.emit({
      type: 'settings_changed',
      model: this.provider.model,
      contextWindow: this.settings.contextWindow,
      maxCycles: this.settings.maxAutonomousCycles,
      budgetPerHour: this.settings.tokenBudgetPerHour,
      budgetPerDay: this.settings.tokenBudgetPerDay ?? 0,
    });
    this.scheduler.start(0);
    if (this.deps.watch) {
      this.watcher = startWatcher({
        root: this.deps.workspace.root,
        ownWrites: this.ownWrites,
        debounceMs: this.deps.watch.debounceMs,
        ignore: this.deps.watch.ignore,
        maxEntries: this.deps.watch.maxEntries,
        onChange: (batch) => this.wakeForChanges(batch),
        onError: (message) => this.notice(message, 'warn'),
        onNotice: (message) => this.notice(message, 'warn'),
        lang: this.settings.lang,
      });
    }
  }

  /** Resolves once the workspace watcher (if any) has finished its first scan. */
  async watching(): Promise<void> {
    await this.watcher?.ready;
  }

  /**
   * The workspace changed: the changes go in the next turn's note, and a resting agent looks
   * at once, or when the wake-up floor ends, or (past the hourly cap) at its next timed look.
   * Paused or waiting for the user, it only remembers them.
   */
  wakeForChanges(batch: WorkspaceChanges): void {
    this.alwaysOn.noteChanges(batch);
    this.changeWake();
  }

  private changeWake(): void {
    if (this.state !== 'THINKING' || this.alwaysOn.pendingChanges === 0) return;
    const decision = this.alwaysOn.changeWakes.request(() => this.changeWake());
    if (decision === 'now') this.scheduler.wakeFor('change');
    else if (decision === 'capped' && this.alwaysOn.changeWakes.firstCapInHour()) {
      this.notice(t(this.settings.lang, 'notice.wakeCap'));
    }
  }

  /** Sets a reminder (the /remind command); the text of what is wrong, if anything. */
  remind(at: number, what: string): Reminder | string {
    return this.alwaysOn.reminders.add(at, what, 'user');
  }

  /** Stops everything: the turn in flight is aborted and no timer stays behind. */
  async stop(): Promise<void> {
    this.started = false;
    this.scheduler.stop();
    this.alwaysOn.changeWakes.cancel();
    this.turns.abort();
    this.approvals.cancel();
    const watcher = this.watcher;
    this.watcher = undefined;
    await Promise.all([this.scheduler.idle(), watcher?.close()]);
  }

  /** Resolves when no turn runs. */
  idle(): Promise<void> {
    return this.scheduler.idle();
  }

  /**
   * The agent's one way to move the machine: the store's `dispatch` (the only writer, which
   * throws on an event the table forbids), then the `state_changed` event for the listeners
   * and the trace. Callers that may try an event that does not apply ask `can()` first.
   */
  private move(event: MachineEvent, reason?: string): void {
    const change = this.deps.store.getState().dispatch(event, reason);
    if (change) this.emit(change);
  }

  /** Enter / Esc / a printable key / Ctrl+C while busy: stop now and listen. */
  interrupt(): boolean {
    // A question asked during an answering turn while paused: stopping it keeps autonomy off.
    if (this.state === 'AWAITING_APPROVAL' && this.approvals.askedWhilePaused) {
      this.approvals.cancel();
      this.move('APPROVAL_DONE_PAUSED');
      this.turns.abort();
      return true;
    }
    // The keys send an interrupt in any state; waiting for the user already, it means nothing.
    if (!can(this.state, 'INTERRUPT')) return false;
    this.move('INTERRUPT');
    this.turns.abort();
    return true;
  }

  /**
   * The user sends a message (or, empty, just resumes). Whatever is in flight stops first.
   * The input is queued and taken by the next user turn's RESTORE, which starts once the
   * stopped turn has saved what it produced: so the history keeps the true order (the cut-off
   * reply, then the user's words). A slash command runs in that turn's COMMAND phase.
   */
  submit(text: string): void {
    if (this.state === 'THINKING' || this.state === 'AWAITING_APPROVAL') {
      // A slash command in flight is short and makes no model call: let it finish.
      if (this.turns.commandInFlight) this.move('INTERRUPT');
      else this.interrupt();
    }
    // A follow-up while paused replaces the answer still streaming.
    else if (this.state === 'PAUSED' && this.busy) this.turns.abort();
    // Every state above now accepts SUBMIT (waiting for the user, or paused).
    this.move('SUBMIT');
    const trimmed = text.trim();
    if (trimmed === '') {
      // An empty Enter asks for a look now (README: "lets it think again"): the pace starts
      // over and the idle skip, which would let a timer look pass as "nothing changed",
      // does not apply.
      this.alwaysOn.wakeUp();
      this.scheduler.wake(0, 'resume');
      return;
    }
    if (isCommand(trimmed)) this.inputs.push(trimmed);
    else {
      this.inputs.push(text);
      this.turns.userSpoke();
    }
    this.scheduler.runUserTurn();
  }

  /** Autonomy off (the pause key, /pause); the turn in flight stops. Paused already: nothing. */
  pause(reason?: string): void {
    if (!can(this.state, 'PAUSE')) return;
    this.move('PAUSE', reason);
    this.turns.abort();
  }

  /** Autonomy back on (the pause key while paused, /resume); thinking already: nothing. */
  resume(): void {
    if (!can(this.state, 'RESUME')) return;
    this.move('RESUME');
    this.turns.cycle = 0;
    this.alwaysOn.wakeUp();
    this.scheduler.wake(0, 'resume');
  }

  togglePause(): void {
    if (this.state === 'PAUSED') this.resume();
    else this.pause();
  }

  /**
   * Gives the floor back to the user after an answering turn (a slash command that answered):
   * WAIT when the machine allows it. Stopped or already waiting, the floor is theirs anyway.
   */
  listen(): void {
    if (can(this.state, 'WAIT')) this.move('WAIT');
  }

  /** The user's answer to the approval prompt. */
  answerApproval(answer: ApprovalAnswer): void {
    this.approvals.answer(answer);
  }

  /** Swaps the model provider (e.g. /model); the next turn uses it. */
  setProvider(provider: Provider): void {
    this.provider = provider;
    this.emit({ type: 'settings_changed', model: provider.model });
  }

  /** Switches to another conversation (e.g. /new); the store shows it at once. */
  setHistory(history: HistoryPort, loaded = false): void {
    this.history = history;
    // `loaded`: another session (a switch, /new), so the screen rebuilds all it shows of one;
    // otherwise the same session's messages were replaced (compaction).
    this.emit({
      type: loaded ? 'history_loaded' : 'messages_replaced',
      messages: history.messages(),
    });
  }

  /** Sets the approval policy of one tool kind (/approve); the next tool call follows it. */
  setApproval(kind: ToolKind, policy: ApprovalPolicy): void {
    this.settings.approval[kind] = policy;
  }

  requestExit(): void {
    this.emit({ type: 'exit_requested' });
  }

  /** Forces compression now (the /compact command); returns text the hook has not said. */
  async compactNow(signal: AbortSignal): Promise<string | undefined> {
    if (!this.deps.compact) return undefined;
    return this.deps.compact(signal, true);
  }
}

export type { HistoryMessage };
