import { makeMessage, type HistoryMessage } from '../core/messages.js';
import { tryNext, type MachineEvent, type MachineState } from '../machine/machine.js';
import { ApprovalGate } from './approvalGate.js';
import type { Lang } from '../i18n/messages.js';
import { TokenCounter } from '../memory/tokenCounter.js';
import { runTurn, type HistoryPort, type TurnInput, type TurnResult } from '../pipeline/turn.js';
import { turnDeps } from './turnDeps.js';
import type { TurnTrigger } from '../pipeline/phases.js';
import type { Provider } from '../providers/types.js';
import { Scheduler, type Timers, type TurnReport } from '../scheduler/scheduler.js';
import type { BackoffSettings } from '../scheduler/backoff.js';
import type { AgentStore } from '../store/agentStore.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolKind } from '../tools/types.js';
import type { Workspace } from '../tools/workspace.js';
import {
  AgentEmitter,
  type AgentEvent,
  type AgentListener,
  type ApprovalAnswer,
} from './events.js';
import { Guards } from './guards.js';
import { respondTo } from './respond.js';
import { SessionSafety } from '../safety/session.js';
import type { ApprovalPolicy } from './toolRunner.js';
import type { AlwaysOn } from './alwaysOn.js';
import type { Reminder, Reminders } from '../schedule/reminders.js';
import type { WorkspaceChanges } from '../watch/changes.js';
import type { OwnWrites } from '../watch/ownWrites.js';
import type { WorkspaceWatcher } from '../watch/workspaceWatcher.js';
import { createAlwaysOn, startWatcher } from './alwaysOnWiring.js';
import type { CommandOutcome } from '../commands/context.js';

export interface AgentSettings {
  thinkIntervalMs: number;
  maxAutonomousCycles: number;
  tokenBudgetPerHour: number;
  maxConsecutiveFailures: number;
  backoff: BackoffSettings;
  toolResultBudgetChars: number;
  approval: Record<ToolKind, ApprovalPolicy>;
  sendReasoningInHistory: boolean;
  /** The model's context window in tokens; requests are fitted under it. */
  contextWindow: number;
  /** The language of what the agent says to the user (pause reasons, command output). */
  lang: Lang;
  /** pacing.maxIntervalMs: the longest rest between looks (default 30 minutes). */
  maxIntervalMs?: number;
  /** 0 = no daily budget (the default: none, for tests; the config has its own default). */
  tokenBudgetPerDay?: number;
  /** Tool calls run per reply at most; the rest come back as not run (default 25). */
  maxToolCallsPerReply?: number;
}

/**
 * Runs a slash command (already bound to its narrow context, see src/agent/commandContext.ts);
 * the COMMAND phase acts on the outcome it returns.
 */
export type CommandHandler = (text: string, signal: AbortSignal) => Promise<CommandOutcome>;

export interface AgentDeps {
  store: AgentStore;
  provider: Provider;
  registry: ToolRegistry;
  workspace: Workspace;
  history: HistoryPort;
  settings: AgentSettings;
  systemPrompt(): string;
  commands?: CommandHandler;
  /**
   * The COMPACT phase: compresses the history when it is due (or always, when forced); the
   * text it has not told the user itself.
   */
  compact?(signal: AbortSignal, force: boolean): Promise<string | undefined>;
  counter?: TokenCounter;
  /** API keys to remove from tool results (a key found in a file goes no further). */
  secrets?: readonly string[];
  timers?: Timers;
  /** Watch the workspace and wake up on changes (`debounceMs` between batches). */
  watch?: { debounceMs?: number };
  /** The zero-token idle path's fingerprint of the workspace; default: a bounded tree walk. */
  fingerprint?(): Promise<string>;
  /** false: never skip a timer look (tests of other behaviour that want every cycle sent). */
  idleSkip?: boolean;
  /** The reminders the `remind` tool writes to (the `schedule` wake-up). */
  reminders?: Reminders;
}

/** A slash command, as opposed to text (`//` escapes a leading slash). */
function isCommand(text: string): boolean {
  return text.startsWith('/') && !text.startsWith('//');
}

/**
 * The agent: the machine (kept in the store), the scheduler and the turn pipeline wired
 * together. Everything it does is reported as events; the store's reducer is subscribed
 * first, so the store is always current when other listeners run.
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
  private readonly guards: Guards;
  private readonly alwaysAllowed = new Set<string>();
  private turnController: AbortController | undefined;
  private turnCounter = 0;
  private cycle = 0;
  /** What the user sent that no turn has taken yet, in order. */
  private readonly pendingInputs: string[] = [];
  private commandInFlight = false;
  private readonly approvals: ApprovalGate;
  /** Redactor, read index and data boundary for this agent's whole session. */
  readonly safety: SessionSafety;
  /** Session tokens already counted against the hourly budget. */
  private spentSoFar = 0;
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
    this.guards = new Guards(() => this.settings);
    ({ alwaysOn: this.alwaysOn, ownWrites: this.ownWrites } = createAlwaysOn(
      deps,
      () => this.settings,
    ));
    this.approvals = new ApprovalGate({
      emit: (e) => this.emit(e),
      transition: (e) => this.transition(e),
      isPaused: () => this.state === 'PAUSED',
    });
    this.scheduler = new Scheduler({
      runTurn: (trigger) => this.turn(trigger),
      mayThink: () => this.state === 'THINKING',
      intervalMs: () => this.alwaysOn.pacing.interval(),
      backoff: () => this.settings.backoff,
      onScheduled: (at) => this.emit({ type: 'scheduled', at }),
      nextDueAt: () => this.alwaysOn.reminders.nextAt(),
      // A reminder is something the user or the model asked for: it ends a [WAIT].
      mayWakeForSchedule: () => this.state === 'AWAITING_INPUT' && this.transition('RESUME'),
      ...(deps.timers ? { timers: deps.timers } : {}),
    });
    this.alwaysOn.reminders.onAdded(() => this.scheduler.refresh());
  }

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
        onChange: (batch) => this.wakeForChanges(batch),
        onError: (message) => this.notice(message, 'warn'),
      });
    }
  }

  /** Resolves once the workspace watcher (if any) has finished its first scan. */
  async watching(): Promise<void> {
    await this.watcher?.ready;
  }

  /**
   * The workspace changed: the changes go in the next turn's note, the pace resets, and a
   * resting agent looks at once. Paused or waiting for the user, it only remembers them.
   */
  wakeForChanges(batch: WorkspaceChanges): void {
    this.alwaysOn.noteChanges(batch);
    if (this.state === 'THINKING') this.scheduler.wakeFor('change');
  }

  /** Sets a reminder (the /remind command); the text of what is wrong, if anything. */
  remind(at: number, what: string): Reminder | string {
    return this.alwaysOn.reminders.add(at, what, 'user');
  }

  /** Stops everything: the turn in flight is aborted and no timer stays behind. */
  async stop(): Promise<void> {
    this.started = false;
    this.scheduler.stop();
    this.turnController?.abort();
    this.approvals.cancel();
    const watcher = this.watcher;
    this.watcher = undefined;
    await Promise.all([this.scheduler.idle(), watcher?.close()]);
  }

  /** Resolves when no turn runs. */
  idle(): Promise<void> {
    return this.scheduler.idle();
  }

  /** Applies a machine event; returns false (and changes nothing) when the table forbids it. */
  transition(event: MachineEvent, reason?: string): boolean {
    const from = this.state;
    const to = tryNext(from, event);
    if (to === undefined) return false;
    this.emit({ type: 'state_changed', from, to, event, ...(reason ? { reason } : {}) });
    return true;
  }

  /** Enter / Esc / a printable key / Ctrl+C while busy: stop now and listen. */
  interrupt(): boolean {
    // A question asked during an answering turn while paused: stopping it keeps autonomy off.
    if (this.state === 'AWAITING_APPROVAL' && this.approvals.askedWhilePaused) {
      this.approvals.cancel();
      const moved = this.transition('APPROVAL_DONE_PAUSED');
      this.abortTurn();
      return moved;
    }
    const moved = this.transition('INTERRUPT');
    if (moved || this.state === 'PAUSED') this.abortTurn();
    return moved;
  }

  /**
   * The user sends a message (or, empty, just resumes). Whatever is in flight stops first.
   * The input is queued and taken by the next user turn, which starts once the stopped turn
   * has saved what it produced: so the history keeps the true order (the cut-off reply, then
   * the user's words). A slash command runs in that turn's COMMAND phase.
   */
  submit(text: string): void {
    if (this.state === 'THINKING' || this.state === 'AWAITING_APPROVAL') {
      // A slash command in flight is short and makes no model call: let it finish.
      if (this.commandInFlight) this.transition('INTERRUPT');
      else this.interrupt();
    }
    // A follow-up while paused replaces the answer still streaming.
    else if (this.state === 'PAUSED' && this.busy) this.abortTurn();
    const trimmed = text.trim();
    if (!this.transition('SUBMIT')) return;
    if (trimmed === '') {
      this.scheduler.wake(0);
      return;
    }
    if (isCommand(trimmed)) this.pendingInputs.push(trimmed);
    else {
      this.pendingInputs.push(text);
      this.cycle = 0;
      this.guards.reset();
    }
    this.scheduler.runUserTurn();
  }

  /**
   * What the user sent since the last turn: the first command alone, or every message up to
   * the next command, persisted now (the previous turn has finished saving).
   */
  private takeInput(): string | undefined {
    const first = this.pendingInputs[0];
    if (first === undefined) return undefined;
    if (isCommand(first)) return this.pendingInputs.shift();
    while (this.pendingInputs.length > 0 && !isCommand(this.pendingInputs[0]!)) {
      const message = makeMessage('user', this.pendingInputs.shift()!);
      const res = this.history.append(message);
      this.emit({ type: 'message_added', message });
      if (!res.ok) {
        this.emit({ type: 'error', error: { kind: 'history_write', message: res.error.message } });
      }
    }
    return undefined;
  }

  pause(reason?: string): void {
    if (this.transition('PAUSE', reason)) this.abortTurn();
  }

  resume(): void {
    if (this.transition('RESUME')) {
      this.cycle = 0;
      this.alwaysOn.wakeUp();
      this.scheduler.wake(0, 'resume');
    }
  }

  togglePause(): void {
    if (this.state === 'PAUSED') this.resume();
    else this.pause();
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
  setHistory(history: HistoryPort): void {
    this.history = history;
    this.emit({ type: 'messages_replaced', messages: history.messages() });
  }

  /**
   * Gives the floor back to the user after an answering turn (a slash command that answered):
   * WAIT when the machine allows it. Stopped or already waiting, the floor is theirs anyway.
   */
  listen(): void {
    this.transition('WAIT');
  }

  /** Sets the approval policy of one tool kind (/approve); the next tool call follows it. */
  setApproval(kind: ToolKind, policy: ApprovalPolicy): void {
    this.settings.approval[kind] = policy;
  }

  requestExit(): void {
    this.emit({ type: 'exit_requested' });
  }

  private abortTurn(): void {
    this.turnController?.abort();
  }

  private async turn(trigger: TurnTrigger): Promise<{ failed: boolean; retryAfterMs?: number }> {
    // Nothing changed since a cycle that found nothing new: skip this look, spend nothing.
    if (await this.alwaysOn.skipLook(trigger, this.pendingInputs.length)) return { failed: false };
    const controller = new AbortController();
    this.turnController = controller;
    const turnId = ++this.turnCounter;
    if (trigger !== 'user') this.cycle += 1;
    const command = trigger === 'user' ? this.takeInput() : undefined;
    this.commandInFlight = command !== undefined;
    this.emit({ type: 'turn_start', turnId, trigger, cycle: this.cycle });

    const input: TurnInput = {
      turnId,
      trigger,
      signal: controller.signal,
      cycle: this.cycle,
      ...(command ? { command } : {}),
    };
    const result = await runTurn(
      input,
      turnDeps({
        agent: this,
        deps: this.deps,
        askApproval: (req, signal) => this.approvals.ask(req, signal),
        alwaysAllowed: this.alwaysAllowed,
      }),
    );
    if (this.turnController === controller) this.turnController = undefined;
    this.commandInFlight = false;
    // The exact tokenizer costs ~150 ms of main-thread work and ~30 MB to load. The estimate
    // is close enough while the context is small; exact counts matter only as it nears the
    // compression threshold, so load it once the context passes a third of the window.
    if (
      !this.counter.exact &&
      this.store.getState().contextTokens > this.settings.contextWindow / 3
    ) {
      void this.counter.preload();
    }
    // RESPOND's policy settles the machine first, so listeners of turn_end see the new state.
    const report = this.respond(result);
    await this.alwaysOn.afterCycle(trigger, result, this.pendingInputs.length);
    // More input arrived (or a command and a message were queued together): answer it next.
    if (this.pendingInputs.length > 0) this.scheduler.runUserTurn();
    this.emit({
      type: 'turn_end',
      turnId,
      outcome: result.outcome,
      wait: result.wait,
      trace: result.trace,
    });
    return report;
  }

  /** Forces compression now (the /compact command); returns text the hook has not said. */
  async compactNow(signal: AbortSignal): Promise<string | undefined> {
    if (!this.deps.compact) return undefined;
    return this.deps.compact(signal, true);
  }

  /** RESPOND policy: what the machine does after a turn, and what the scheduler learns. */
  private respond(result: TurnResult): TurnReport {
    const spent = this.store.getState().sessionTokens;
    const report = respondTo(result, {
      lang: this.settings.lang,
      failures: this.scheduler.consecutiveFailures,
      guards: this.guards,
      budget: this.alwaysOn.budget,
      newTokens: spent - this.spentSoFar,
      cycle: this.cycle,
      redact: (text) => this.safety.redactor.redact(text),
      emit: (e) => this.emit(e),
      wait: () => this.transition('WAIT'),
      autoPause: (reason) => this.autoPause(reason),
    });
    if (result.outcome === 'ok') this.spentSoFar = spent;
    return report;
  }

  private autoPause(reason: string): void {
    if (this.transition('AUTO_PAUSE', reason)) this.notice(reason, 'warn');
  }
}

export type { HistoryMessage };
