import type { MachineEvent, MachineState } from '../machine/machine.js';
import { ApprovalGate } from './approvalGate.js';
import { TokenCounter } from '../memory/tokenCounter.js';
import { realTimers, Scheduler } from '../scheduler/scheduler.js';
import type { AgentStore } from '../store/agentStore.js';
import { AgentEmitter, type AgentEvent, type AgentListener } from '../api/events.js';
import { SessionSafety } from '../tools/sessionSafety.js';
import type { AlwaysOn } from './alwaysOn.js';
import type { WorkspaceChanges } from '../watch/changes.js';
import type { OwnWrites } from '../watch/ownWrites.js';
import type { WorkspaceWatcher } from '../watch/workspaceWatcher.js';
import { createAlwaysOn, startWatcher } from './alwaysOnWiring.js';
import type { AgentDeps, AgentSettings, CommandHandler, CompactFn } from './agentDeps.js';
import type { AgentCommand, SendResult } from '../api/commands.js';
import { AgentControls } from './controls.js';
import { snapshotOf, type AgentSnapshot } from '../store/agentStore.js';
import type { AgentVerbs } from './agentDeps.js';
import { InputQueue } from './inputQueue.js';
import { Steers } from './steers.js';
import { runTurn, TurnMemory, type TurnDeps } from './turn.js';
import { seedBudget, wireFeeds } from './feeds.js';
import { t } from '../i18n/messages.js';
import { ActivityTracker, type ActivityFacts } from './activity.js';
import { WaitWatch } from './waitWatch.js';
import { WriteFailures } from './writeFailures.js';
import { frozenSettings, patchedSettings, type SettingsPatch } from './settings.js';
import { invokedAs } from '../core/invokedAs.js';

export type { AgentDeps, AgentSettings, CommandHandler } from './agentDeps.js';
export type { AgentCommand, SendResult } from '../api/commands.js';

/**
 * The agent: the machine (held in the store, moved only by the store's `dispatch`), the
 * scheduler and the turn pipeline wired together. Its one front door: commands in
 * (`send`), events out (`subscribe`), and `snapshot()` for a screen that attaches late. Only
 * the agent emits its events; the store's reducer is subscribed first, so the store is
 * current when other listeners run. The agent decides from the store's machine state and its
 * own counts, never from what the store keeps for the screen.
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
  private readonly inputs = new InputQueue((items) =>
    this.emitter.emit({ type: 'queue_changed', items }),
  );
  /** Messages the user steered with, for the turn in flight's next tool boundary. */
  private readonly steers = new Steers();
  /** What the turns keep between them (cycle count, loop guard, the turn in flight). */
  private readonly turns = new TurnMemory();
  /** What every turn reads and acts through, built once. */
  private readonly turnDeps: TurnDeps;
  private readonly approvals: ApprovalGate;
  private readonly controls: AgentControls;
  /** Redactor, read index and data boundary for this agent's whole session. */
  private readonly safety: SessionSafety;
  private started = false;
  /** State files that could not be written pause the agent (writeFailures.ts). */
  private readonly writeFailures: WriteFailures;
  /**
   * Warnings found while the agent is built (a damaged ledger), told at start(): whoever
   * listens (a screen, print mode's stderr) has subscribed by then.
   */
  private readonly earlyWarnings: string[] = [];
  private watcher: WorkspaceWatcher | undefined;
  /**
   * The watcher has finished its first scan. Until then a new file is taken into its snapshot
   * unreported, so a free rest cannot yet promise to wake on a change.
   */
  private watcherReady = false;
  /** Pacing, budgets, reminders, per-turn notes and pending workspace changes. */
  private readonly alwaysOn: AlwaysOn;
  /** Paths the agent's own write tools touch, so the watcher ignores them. */
  private readonly ownWrites: OwnWrites;
  /** The current settings: a frozen value, replaced whole by `changeSettings`. */
  private settings: AgentSettings;
  private readonly counter: TokenCounter;
  private readonly compact: CompactFn | undefined;
  /** The open question ([WAIT]) and the looks it allows while it waits. */
  private readonly waitWatch: WaitWatch;
  /** Working, resting or waiting for the user, told as the `activity` event. */
  private readonly activity: ActivityTracker;

  constructor(private readonly deps: AgentDeps) {
    this.settings = frozenSettings(deps.settings);
    if (deps.inputs) this.inputs.useJournal(deps.inputs.journal, deps.inputs.restored);
    this.counter = deps.counter ?? new TokenCounter();
    this.safety = new SessionSafety(deps.secrets ?? []);
    // The store's reducer first, so the store is current when other listeners run.
    this.emitter.subscribe(deps.store.getState().apply);
    ({ alwaysOn: this.alwaysOn, ownWrites: this.ownWrites } = createAlwaysOn(
      deps,
      () => this.settings,
      // A change the watcher will name is left to it: twice its debounce, and a second.
      () => (this.watcherReady ? 2 * (deps.watch?.debounceMs ?? 250) + 1000 : undefined),
    ));
    this.waitWatch = new WaitWatch({
      state: () => this.state,
      move: (e, reason) => this.move(e, reason),
      alwaysOn: this.alwaysOn,
    });
    const timers = deps.timers ?? realTimers;
    this.activity = new ActivityTracker(
      () => this.activityFacts(),
      () => timers.now(),
      (activity) => this.emitter.emit({ type: 'activity', activity }),
    );
    this.writeFailures = new WriteFailures({
      state: () => this.state,
      move: (e, reason) => this.move(e, reason),
      notice: (text) => this.notice(text, 'warn'),
      lang: () => this.settings.lang,
    });
    // First of all listeners: a write that fails as a turn ends pauses before others hear it.
    this.emitter.subscribe(this.writeFailures.see);
    // The wait watch and the activity hear only the events they act on, after every listener.
    this.emitter.follow(['turn_start', 'turn_end', 'history_loaded'], (e) => this.waitWatch.see(e));
    this.emitter.follow(['turn_start', 'turn_end', 'scheduled', 'state_changed'], (e) =>
      this.activity.see(e),
    );
    // An autonomous question has waited watch.resumeAfterWaitMs: changes that came meanwhile
    // wake a look now.
    this.alwaysOn.question.onWatch(() => this.changeWake());
    this.approvals = new ApprovalGate({
      emit: (e) => this.emitter.emit(e),
      move: (e) => this.move(e),
      state: () => this.state,
      ...(deps.answers ? { journal: deps.answers.journal } : {}),
    });
    if (deps.answers) this.earlyWarnings.push(...deps.answers.warnings);
    // A call's end is told once its result is saved: an answer that let it run is then done.
    this.emitter.follow(['tool_end'], () => this.approvals.settled());
    this.scheduler = this.createScheduler();
    const verbs = this.verbs();
    this.compact = deps.compact?.(verbs);
    const commands: CommandHandler | undefined = deps.commands?.(verbs);
    this.turnDeps = {
      settings: this.settings,
      provider: deps.provider,
      history: deps.history,
      store: deps.store,
      bus: this.emitter,
      registry: deps.registry,
      workspace: deps.workspace,
      secrets: deps.secrets ?? [],
      safety: this.safety,
      counter: this.counter,
      ownWrites: this.ownWrites,
      alwaysOn: this.alwaysOn,
      inputs: this.inputs,
      steers: this.steers,
      approvals: this.approvals,
      alwaysAllowed: new Set<string>(),
      scheduler: this.scheduler,
      systemPrompt: deps.systemPrompt,
      restore: deps.restore,
      commands,
      compact: this.compact,
      toolsReady: deps.toolsReady,
      timers,
      writeFailures: this.writeFailures,
    };
    this.controls = new AgentControls({
      state: () => this.state,
      busy: () => this.busy,
      move: (e, reason) => this.move(e, reason),
      notice: (text, level) => this.notice(text, level),
      turns: this.turns,
      scheduler: this.scheduler,
      inputs: this.inputs,
      steers: this.steers,
      lang: () => this.settings.lang,
      alwaysOn: this.alwaysOn,
      approvals: this.approvals,
    });
    this.alwaysOn.reminders.onAdded(() => this.scheduler.refresh());
    this.alwaysOn.reminders.onDue((due) =>
      this.emitter.emit({
        type: 'reminders_due',
        reminders: due.map(({ id, at, what, by }) => ({ id, at, what, by })),
      }),
    );
    if (deps.spentBefore)
      seedBudget(this.alwaysOn.budget, deps.spentBefore, (e) => this.emitter.emit(e));
    if (deps.feeds)
      wireFeeds(deps.feeds, {
        emit: (e) => this.emitter.emit(e),
        notice: (text) =>
          this.started ? this.notice(text, 'warn') : void this.earlyWarnings.push(text),
        writeFailed: (problem) => this.writeFailed(problem),
        subscribe: (listener) => this.subscribe(listener),
        historyChanged: () => this.historyChanged(true),
      });
  }

  /** The verbs the slash commands and the compactor get (see verbs.ts). */
  private verbs(): AgentVerbs {
    return {
      settings: () => this.settings,
      registry: this.deps.registry,
      workspace: this.deps.workspace,
      store: this.deps.store,
      alwaysOn: this.alwaysOn,
      notice: (text, level) => this.notice(text, level),
      pause: () => this.controls.pause(),
      resume: () => this.controls.resume(),
      quit: () => this.quit(),
      detach: () => this.detach(),
      clearScreen: () => this.emitter.emit({ type: 'messages_replaced', messages: [] }),
      historyReplaced: () => this.historyChanged(false),
      compactNow: async (signal) => (this.compact ? this.compact(signal, true) : undefined),
      provider: () => this.turnDeps.provider,
      setProvider: (provider) => {
        this.turnDeps.provider = provider;
        this.emitter.emit({ type: 'settings_changed', model: provider.model });
      },
      personaChanged: (id) => this.emitter.emit({ type: 'settings_changed', persona: id }),
      setApproval: (kind, policy) => this.changeSettings({ approval: { [kind]: policy } }),
      remind: (at, what) => this.alwaysOn.reminders.add(at, what, 'user'),
    };
  }

  private createScheduler(): Scheduler {
    return new Scheduler({
      runTurn: (trigger) => runTurn(trigger, this.turnDeps, this.turns),
      mayThink: () => this.state === 'THINKING',
      intervalMs: () => this.alwaysOn.pacing.interval(),
      backoff: () => this.settings.backoff,
      // Absent, not undefined: an event keeps its shape through JSON.
      onScheduled: (at) =>
        this.emitter.emit({ type: 'scheduled', ...(at !== undefined ? { at } : {}) }),
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

  get busy(): boolean {
    return this.scheduler.isRunning;
  }

  /**
   * A state file (the reminders, the ledger) could not be written: the agent pauses with
   * `problem` as the reason instead of going on as if it were saved.
   */
  writeFailed(problem: string): void {
    this.writeFailures.report(problem);
  }

  /** Events out: every event the agent emits, in order; returns the unsubscribe. */
  subscribe(listener: AgentListener): () => void {
    return this.emitter.subscribe(listener);
  }

  /**
   * What a screen attaching late starts from: the store's display state as plain data. A
   * store made from it (`createMirrorStore`) that then `follow`s every later event equals
   * the agent's own store.
   */
  snapshot(): AgentSnapshot {
    return snapshotOf(this.deps.store.getState());
  }

  /**
   * Commands in: the one way the screen, print mode, a socket client and the tests drive the
   * agent. What it did shows in the events and the store; the result only says whether the
   * command was taken, and if not, the problem.
   */
  send(command: AgentCommand): SendResult {
    return this.controls.send(command);
  }

  /** What the activity is read from (the machine, the schedule, the rest, the question). */
  private activityFacts(): Omit<ActivityFacts, 'inTurn' | 'scheduledAt' | 'stateSince'> {
    const question = this.alwaysOn.question;
    return {
      machine: this.state,
      freeRest: this.alwaysOn.resting && (this.watcherReady || !this.deps.watch),
      reminderAt: this.alwaysOn.nextDueAt(),
      pauseReason: this.deps.store.getState().pauseReason,
      question: question.facts,
      watchFrom: question.watchFrom,
    };
  }

  /**
   * The settings command: the next settings value replaces the current one (which stays as
   * it was for whoever holds it), and the screen hears what it shows of them.
   */
  private changeSettings(patch: SettingsPatch): void {
    this.settings = patchedSettings(this.settings, patch);
    // The turn reads the value in force when each call starts (its deps hold the current one).
    this.turnDeps.settings = this.settings;
    this.emitter.emit(this.settingsEvent());
  }

  /** What the store shows of the settings, as a `settings_changed` event. */
  private settingsEvent(): Extract<AgentEvent, { type: 'settings_changed' }> {
    const s = this.settings;
    return {
      type: 'settings_changed',
      lang: s.lang,
      contextWindow: s.contextWindow,
      maxCycles: s.maxAutonomousCycles,
      budgetPerHour: s.tokenBudgetPerHour,
      budgetPerDay: s.tokenBudgetPerDay ?? 0,
    };
  }

  private notice(text: string, level: 'info' | 'warn' = 'info'): void {
    this.emitter.emit({ type: 'notice', level, text });
  }

  /** Loads the history into the store and starts thinking (if the machine is THINKING). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.emitter.emit({ type: 'history_loaded', messages: this.turnDeps.history.messages() });
    this.emitter.emit({ ...this.settingsEvent(), model: this.turnDeps.provider.model });
    for (const text of this.earlyWarnings.splice(0)) this.notice(text, 'warn');
    this.activity.refresh();
    this.scheduler.start(0);
    // Messages the last run acknowledged and never answered (it was killed or stopped).
    if (this.inputs.size > 0) {
      this.notice(
        `${this.inputs.size} message(s) sent before the agent last stopped are answered now.`,
        'info',
      );
      this.scheduler.runUserTurn();
    }
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
      void this.watcher.ready.then(
        () => {
          this.watcherReady = true;
          this.activity.refresh();
        },
        () => undefined,
      );
    }
  }

  /** Resolves once the workspace watcher (if any) has finished its first scan. */
  async watching(): Promise<void> {
    await this.watcher?.ready;
  }

  /**
   * The workspace changed: the changes go in the next turn's note, and a resting agent looks
   * at once, or when the wake-up floor ends, or (past the hourly cap) at its next timed look.
   * Paused or waiting for the user, it only remembers them; but an autonomous question that
   * has waited `watch.resumeAfterWaitMs` lets them wake a look, the question staying open.
   */
  wakeForChanges(batch: WorkspaceChanges): void {
    this.alwaysOn.noteChanges(batch);
    this.activity.refresh();
    this.changeWake();
  }

  private changeWake(): void {
    if (this.alwaysOn.pendingChanges === 0) return;
    const watching = this.state === 'AWAITING_INPUT' && this.alwaysOn.question.watching();
    if (this.state !== 'THINKING' && !watching) return;
    const decision = this.alwaysOn.changeWakes.request(() => this.changeWake());
    if (decision === 'now') {
      if (watching) this.move('RESUME', 'a workspace change; the question stays open');
      this.scheduler.wakeFor('change');
    } else if (decision === 'capped' && this.alwaysOn.changeWakes.firstCapInHour()) {
      this.notice(t(this.settings.lang, 'notice.wakeCap'));
    }
  }

  /** Stops everything: the turn in flight is aborted and no timer stays behind. */
  async stop(): Promise<void> {
    this.started = false;
    this.scheduler.stop();
    this.alwaysOn.changeWakes.cancel();
    this.alwaysOn.question.cancel();
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
    if (change) this.emitter.emit(change);
  }

  /**
   * The history shows another session (`loaded`: a switch, /new, so the screen rebuilds all
   * it shows of one) or the same session's messages replaced (a compression).
   */
  private historyChanged(loaded: boolean): void {
    this.emitter.emit({
      type: loaded ? 'history_loaded' : 'messages_replaced',
      messages: this.turnDeps.history.messages(),
    });
  }

  /**
   * /exit: the host's quit, after the command that asked has returned (the host's quit stops
   * the agent, which must not happen inside the command's own turn).
   */
  private quit(): void {
    const quit = this.deps.quit;
    if (quit) queueMicrotask(quit);
    else this.notice(t(this.settings.lang, 'notice.noQuit'), 'warn');
  }

  /** /detach: the host's detach, like /exit's quit (after the command has returned). */
  private detach(): void {
    const detach = this.deps.detach;
    if (detach) queueMicrotask(detach);
    else this.notice(t(this.settings.lang, 'notice.noDetach', { cmd: invokedAs() }), 'warn');
  }
}
