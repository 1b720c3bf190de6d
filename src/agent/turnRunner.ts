import { can, type MachineEvent } from '../machine/machine.js';
import type { TurnTrigger } from '../api/trace.js';
import {
  runTurn,
  type StepVerdict,
  type TakenInput,
  type TurnFacts,
  type TurnResult,
} from '../pipeline/turn.js';
import type { TurnReport } from '../scheduler/scheduler.js';
import type { AgentDeps, CommandHandler, CompactFn } from './agentDeps.js';
import type { ApprovalGate } from './approvalGate.js';
import { DAY_MS, HOUR_MS } from './budget.js';
import type { InputQueue } from './inputQueue.js';
import { respond } from './respond.js';
import { turnDeps, type TurnHost } from './turnDeps.js';
import { t, type Lang } from '../i18n/messages.js';
import type { RecoveryReport } from '../journal/recover.js';

/** The notice shown when the first turn finished a crash record (none for a clean start). */
export function crashNotice(report: RecoveryReport, lang: Lang = 'en'): string | undefined {
  const refused = report.refused ?? [];
  const lines: string[] = [];
  if (report.results > 0 || report.rolledBack > 0) {
    const { results, rolledBack } = report;
    lines.push(t(lang, 'notice.crashCutOff', { results, rolledBack }));
  }
  if (refused.length > 0) {
    // The journal is data: what did not pass its checks is named, and was not acted on.
    const shown = refused.slice(0, 10).map((r) => `  ${r}`);
    if (refused.length > 10)
      shown.push(`  ${t(lang, 'notice.more', { more: refused.length - 10 })}`);
    lines.push(t(lang, 'notice.crashRefused', { list: shown.join('\n') }));
  }
  return lines.length > 0 ? lines.join('\n') : undefined;
}

/** What the turn runner is given by the agent that builds it (it writes none of its fields). */
export interface TurnRunnerParts {
  host: TurnHost;
  deps: AgentDeps;
  commands?: CommandHandler | undefined;
  compact?: CompactFn | undefined;
  inputs: InputQueue;
  approvals: ApprovalGate;
  alwaysAllowed: Set<string>;
  /** Consecutive failures the scheduler has counted before this turn. */
  failures(): number;
  /** Asks the scheduler for a user turn as soon as this one ends. */
  runUserTurn(): void;
  /** The agent's one way to move the machine (the store's dispatch, then the event). */
  move(event: MachineEvent, reason?: string): void;
}

/**
 * Runs the agent's turns one at a time through the pipeline, and keeps what the agent
 * decides from between them: the cycle count, the loop guard's memory, the tokens not yet
 * counted against the budget and how full the context is. These are the agent's own
 * numbers; the store's copies are for the screen.
 */
export class TurnRunner {
  /** Autonomous cycles since the user last spoke (or autonomy was resumed). */
  private cycle = 0;
  /** A slash command is running (it is short and makes no model call: a submit lets it end). */
  private command = false;
  private controller: AbortController | undefined;
  private turnCounter = 0;
  /** The last run's crash record is finished (or there was none to finish). */
  private recovered = false;
  /** This turn's RESTORE could not finish it. */
  private recoveryFailed = false;
  private recentCalls: readonly string[] = [];
  /** Tokens of turns since the last one that went through (they count with it). */
  private unbudgetedTokens = 0;
  private contextTokens = 0;

  constructor(private readonly p: TurnRunnerParts) {}

  /** Stops the turn in flight (its signal reaches the provider and every tool). */
  abort(): void {
    this.controller?.abort();
  }

  /** A slash command is running (it is short and makes no model call: a submit lets it end). */
  get commandInFlight(): boolean {
    return this.command;
  }

  /** The user spoke: a fresh cycle count and loop guard. */
  userSpoke(): void {
    this.cycle = 0;
    this.recentCalls = [];
  }

  /** Autonomy was resumed: the cycle count starts over (the loop guard keeps its memory). */
  resumed(): void {
    this.cycle = 0;
  }

  async run(trigger: TurnTrigger): Promise<TurnReport> {
    const { host: agent, inputs } = this.p;
    // A user turn whose queued messages were all dropped before it started has nothing to answer.
    if (trigger === 'user' && inputs.size === 0) return { failed: false };
    // Nothing changed since a cycle that found nothing new: skip this look, spend nothing.
    if (await agent.alwaysOn.skipLook(trigger, inputs.size)) return { failed: false };
    const controller = new AbortController();
    this.controller = controller;
    this.recoveryFailed = false;
    const turnId = ++this.turnCounter;
    if (trigger !== 'user') this.cycle += 1;
    agent.emit({ type: 'turn_start', turnId, trigger, cycle: this.cycle });
    const result = await runTurn(
      { turnId, trigger, signal: controller.signal, cycle: this.cycle },
      turnDeps({
        host: agent,
        deps: this.p.deps,
        commands: this.p.commands,
        compact: this.p.compact,
        askApproval: (req, signal) => this.p.approvals.ask(req, signal),
        alwaysAllowed: this.p.alwaysAllowed,
        recover: () => this.recover(),
        takeInput: () => this.takeInput(trigger),
        respond: (facts) => this.respond(facts),
      }),
    );
    if (this.controller === controller) this.controller = undefined;
    this.command = false;
    this.preloadTokenizer();
    await agent.alwaysOn.afterCycle(trigger, result, inputs.size);
    // More input arrived (or a command and a message were queued together): answer it next.
    // Not when RESTORE could not finish the crash record: the input waits (it must follow the
    // recovered results), and the retry comes with the back-off, not in a tight loop.
    if (inputs.size > 0 && !this.recoveryFailed) this.p.runUserTurn();
    this.emitEnd(result);
    return result.report;
  }

  private emitEnd(result: TurnResult): void {
    this.p.host.emit({
      type: 'turn_end',
      turnId: result.turnId,
      outcome: result.outcome,
      wait: result.wait,
      trace: result.trace,
    });
  }

  /**
   * The exact tokenizer costs ~150 ms of main-thread work and ~30 MB to load. The estimate
   * is close enough while the context is small; exact counts matter only as it nears the
   * compression threshold, so load it once the context passes a third of the window.
   */
  private preloadTokenizer(): void {
    const { counter, settings } = this.p.host;
    if (!counter.exact && this.contextTokens > settings.contextWindow / 3) void counter.preload();
  }

  /**
   * RESTORE, once per run: the crash record of the last run, finished before any request.
   * A failure fails the turn (shown as its error); the next turn tries again.
   */
  private async recover(): Promise<void> {
    const restore = this.p.deps.restore;
    if (this.recovered || !restore) return;
    this.recoveryFailed = true;
    const report = await restore();
    this.recoveryFailed = false;
    this.recovered = true;
    const agent = this.p.host;
    if (report.results > 0) {
      agent.emit({ type: 'messages_replaced', messages: agent.history().messages() });
    }
    const text = crashNotice(report, agent.settings.lang);
    if (text) agent.notice(text, 'warn');
  }

  /** RESTORE: a user turn takes what the user queued; an autonomous turn takes nothing. */
  private takeInput(trigger: TurnTrigger): TakenInput | undefined {
    if (trigger !== 'user') return undefined;
    const input = this.p.inputs.take();
    this.command = input.command !== undefined;
    // A message queued while the last turn ran, which then ended with [WAIT]: the floor was
    // the user's, and their words are what this turn answers.
    if (input.messages.length > 0 && this.p.host.state() === 'AWAITING_INPUT')
      this.p.move('SUBMIT');
    return input;
  }

  /**
   * RESPOND, after each step: the pure policy decides; the agent reports, counts and moves
   * the machine, and the turn goes on with its next step when the policy says so.
   */
  private respond(facts: TurnFacts): StepVerdict {
    const agent = this.p.host;
    const settings = agent.settings;
    this.unbudgetedTokens += facts.tokens.total;
    if (facts.tokens.context !== undefined) this.contextTokens = facts.tokens.context;
    const r = respond(facts, {
      lang: settings.lang,
      maxAutonomousCycles: settings.maxAutonomousCycles,
      maxConsecutiveFailures: settings.maxConsecutiveFailures,
      ...(settings.maxStepsPerTurn !== undefined
        ? { maxStepsPerTurn: settings.maxStepsPerTurn }
        : {}),
      failures: this.p.failures(),
      cycle: this.cycle,
      recentCalls: this.recentCalls,
      redact: (text) => agent.safety.redactor.redact(text),
    });
    for (const e of r.errors) agent.emit(e);
    if (r.countTokens) this.countTokens();
    // A step that went through has had its tokens counted (or dropped with a failed save).
    if (facts.outcome === 'ok') this.unbudgetedTokens = 0;
    this.recentCalls = r.recentCalls;
    if (r.event) this.settle(r.event, r.reason);
    return { report: r.report, more: r.more };
  }

  private countTokens(): void {
    const { budget } = this.p.host.alwaysOn;
    budget.record(this.unbudgetedTokens);
    this.p.host.emit({
      type: 'budget',
      usedLastHour: budget.used(HOUR_MS),
      usedLastDay: budget.used(DAY_MS),
    });
  }

  private settle(event: MachineEvent, reason: string | undefined): void {
    // The user may have moved the machine while the turn ended (stopped or paused it, or sent
    // a message): their move stands, and the policy's event no longer applies.
    if (!can(this.p.host.state(), event)) return;
    this.p.move(event, reason);
    if (event === 'AUTO_PAUSE' && reason) this.p.host.notice(reason, 'warn');
  }
}
