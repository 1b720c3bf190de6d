/**
 * One turn, top to bottom: restore → compact if due → command? → for each step { build →
 * stream and run its calls → save → respond }, until the pure `respond` says the turn does not
 * go on. Each block runs inside `phase()`, which records its start, duration and outcome: that
 * record is the turn's trace (`/trace`). The turn never throws: a failure becomes the step's
 * error, the step still saves what it made, and RESPOND reports it. A transient model error is
 * retried inside RUN, the same request after a back-off (src/agent/retry.ts), so a user's turn
 * stays the user's; only a failure past its tries reaches RESPOND.
 */
import type { Phase, PhaseOutcome, PhaseRecord, TurnTrigger } from '../api/trace.js';
import { autonomous } from '../api/trace.js';
import type { AgentEvent } from '../api/events.js';
import type { ChatMessage, FunctionTool, HistoryMessage } from '../core/messages.js';
import { crashNotice } from '../journal/crashNotice.js';
import type { RecoveryReport } from '../journal/recover.js';
import { can, type MachineEvent } from '../machine/machine.js';
import type { TokenCounter } from '../memory/tokenCounter.js';
import { TurnSaver, type TurnHistory } from '../pipeline/saver.js';
import {
  readReply,
  streamReply,
  type ParsedReply,
  type StreamedReply,
} from '../pipeline/stream.js';
import { runToolCalls, type CallOutcome, type ToolRunnerDeps } from '../pipeline/toolRunner.js';
import type { Provider, TurnError } from '../providers/types.js';
import { realTimers, type Timers, type TurnReport } from '../scheduler/scheduler.js';
import type { AgentStore } from '../store/agentStore.js';
import type { SessionSafety } from '../tools/sessionSafety.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Workspace } from '../tools/workspace.js';
import { attachMentions } from './mentions.js';
import type { OwnWrites } from '../watch/ownWrites.js';
import { t } from '../i18n/messages.js';
import { functionTools } from '../tools/functionSchemas.js';
import type { AgentSettings, CommandHandler, CompactFn, ToolsReady } from './agentDeps.js';
import type { AlwaysOn } from './alwaysOn.js';
import type { ApprovalGate } from './approvalGate.js';
import { DAY_MS, HOUR_MS } from '../memory/tokenBudget.js';
import type { InputQueue } from './inputQueue.js';
import type { TurnMemory } from './turnMemory.js';
import { Novelty } from './novelty.js';
import type { Steers } from './steers.js';
import { buildTurnRequest } from './request.js';
import { respond, type TurnFacts } from './respond.js';
import { retryDelay, retryNotice, waitOrAbort } from './retry.js';

export { TurnMemory } from './turnMemory.js';
/**
 * What a turn reads and acts through, built once by the agent: plain parts and fields, no
 * closure into the agent. A /model switch writes `provider`, a settings command `settings`
 * (a frozen value, replaced whole); `history` is the current one.
 */
export interface TurnDeps {
  settings: AgentSettings;
  provider: Provider;
  history: TurnHistory;
  readonly store: AgentStore;
  /** The agent's bus: the turn's events are the agent's events. */
  readonly bus: { emit(event: AgentEvent): void };
  readonly registry: ToolRegistry;
  readonly workspace: Workspace;
  readonly secrets: readonly string[];
  readonly safety: SessionSafety;
  readonly counter: TokenCounter;
  readonly ownWrites: OwnWrites;
  readonly alwaysOn: AlwaysOn;
  readonly inputs: InputQueue;
  /** Messages the user steered with: read at the next tool boundary (steers.ts). */
  readonly steers?: Steers | undefined;
  readonly approvals: Pick<ApprovalGate, 'ask'>;
  /** Tool names the user allowed for the rest of the run. */
  readonly alwaysAllowed: Set<string>;
  readonly scheduler: { readonly consecutiveFailures: number; runUserTurn(): void };
  readonly systemPrompt: () => string;
  /** The first turn's RESTORE: finishes the crash record the last run left. */
  readonly restore?: (() => Promise<RecoveryReport>) | undefined;
  readonly commands?: CommandHandler | undefined;
  readonly compact?: CompactFn | undefined;
  /** Tool sources still connecting (MCP): BUILD waits for them, bounded. */
  readonly toolsReady?: ToolsReady | undefined;
  /** The clock a retry's back-off waits on (the agent's timers; absent: the real ones). */
  readonly timers?: Timers | undefined;
  /** The other state files' failed writes (writeFailures.ts): RESPOND pauses for them. */
  readonly writeFailures?: { take(): string | undefined } | undefined;
}

/**
 * How a block ended. The trace knows one `shortcut`; inside the turn its two meanings have two
 * names: COMMAND `handled` the turn itself, BUILD was `blocked` by a token budget.
 */
type Outcome = Exclude<PhaseOutcome, 'shortcut'> | 'handled' | 'blocked';

/** What one step made, block by block. */
interface Step {
  step: number;
  /** BUILD: the request (and why it was not sent, if it was not). */
  built?: {
    messages: ChatMessage[];
    promptTokens: number;
    tools?: readonly FunctionTool[];
    blocked?: string;
  };
  /** RUN: the streamed reply, its one reading (absent if cut short first), its calls' outcomes. */
  ran?: StreamedReply & { parsed?: ParsedReply; outcomes: CallOutcome[] };
  /** Why the step failed: the model's error, or a block that threw. */
  error?: TurnError;
  /** Tries of the step's request that failed (each retried, or the last one given up). */
  failedTries?: number;
  /** Tokens the failed tries used (what they streamed before they broke off). */
  failedTokens?: number;
  /** The step's request is the chain's wrap-up: its calls brought nothing new twice. */
  wrapUp?: boolean;
}

/** One turn in flight: what its blocks share. */
interface Turn {
  readonly d: TurnDeps;
  readonly mem: TurnMemory;
  readonly trigger: TurnTrigger;
  readonly turnId: number;
  readonly cycle: number;
  readonly signal: AbortSignal;
  readonly saver: TurnSaver;
  /** Consecutive failures the scheduler counted before this turn. */
  readonly failures: number;
  /** The trace: one record per block that ran (or was skipped by an abort). */
  readonly phases: PhaseRecord[];
  readonly startedAt: number;
  readonly t0: number;
  /** The step in flight: each reply with calls starts the next. */
  s: Step;
  /** RESTORE: the slash command the user typed. */
  command?: string;
  /** COMMAND handled the turn: no model call, nothing saved, no RESPOND. */
  handled: boolean;
  /** RESTORE could not finish the last run's crash record. */
  recoveryFailed: boolean;
  /** The id of the turn's first reply with calls: the change journal groups the turn by it. */
  group?: string;
  /** The last prompt's size: it stays across steps until the next request reports one. */
  context?: number;
  /** The system prompt, made at the first BUILD (once the tools are ready) for the turn. */
  prompt?: string;
  /** The last reply this turn saved (a command's turn saves none, and asks nothing). */
  reply?: string;
  /** What the turn's calls found so far: a step that finds nothing new is a stale one. */
  readonly novelty: Novelty;
  /** Steps in a row whose calls brought nothing not seen before in this turn. */
  stale: number;
  /** A request of this turn reached the server (one that never did is no cycle). */
  reached: boolean;
  /** The user steered this turn: what it goes on with answers them. */
  steered?: boolean;
}

/** Runs one turn for `trigger`; what the scheduler learns (a failure to back off from). */
export async function runTurn(
  trigger: TurnTrigger,
  d: TurnDeps,
  mem: TurnMemory,
): Promise<TurnReport> {
  // A user turn whose queued messages were all dropped before it started has nothing to answer.
  if (trigger === 'user' && d.inputs.size === 0) return { failed: false };
  // Nothing changed since a cycle that found nothing new: skip this look, spend nothing.
  if (await d.alwaysOn.skipLook(trigger, d.inputs.size)) return { failed: false };
  const tr = begin(trigger, d, mem);
  const all = { calls: [] as string[], results: [] as string[], tokens: 0 };
  let last: { facts: TurnFacts; report: TurnReport } | undefined;

  let out = await phase(tr, 'RESTORE', () => restore(tr));
  // COMPACT: the history compressed when it is due, once, before the turn's first request.
  const compact = async (): Promise<Outcome> => (await d.compact?.(tr.signal, false), 'next');
  if (out === 'next') out = await phase(tr, 'COMPACT', compact);
  if (out === 'next') out = await phase(tr, 'COMMAND', () => command(tr));
  while (out !== 'handled') {
    if (out === 'next') out = await phase(tr, 'BUILD', () => build(tr));
    if (out === 'next') out = await phase(tr, 'RUN', () => run(tr));
    // A request over a budget was not sent: nothing to save, RESPOND pauses.
    if (out !== 'blocked') await phase(tr, 'SAVE', () => save(tr));
    // RESPOND: the step's facts join the turn's, then the pure policy gives its verdict.
    const facts = staleness(tr, factsOf(tr));
    let wrapUp = false;
    out = await phase(tr, 'RESPOND', async () => {
      all.calls.push(...facts.calls);
      all.results.push(...facts.results);
      all.tokens += facts.tokens.total;
      const verdict = decide(tr, facts);
      last = { facts, report: verdict.report };
      wrapUp = verdict.wrapUp;
      return verdict.more ? 'step' : 'next';
    });
    if (out !== 'step') break;
    steerIn(tr);
    // The next step: its reply and results are new ones, and go back to the model at once.
    tr.s = { step: tr.s.step + 1, ...(wrapUp ? { wrapUp } : {}) };
    tr.saver.nextStep();
    out = 'next';
  }

  // How the turn ends: RESPOND's verdict on its last step. A turn without one (a command, or
  // RESPOND itself failed) failed only if it erred.
  const facts = last?.facts ?? factsOf(tr);
  const report = last?.report ?? { failed: facts.outcome === 'error' };
  const tokens = { ...facts.tokens, total: all.tokens };
  await end(tr, { ...facts, calls: all.calls, results: all.results, tokens });
  return report;
}

/**
 * The step's calls judged against what this turn's calls found before: a step with calls
 * whose results are all seen already (a `remind`, a failed call, a repeated read) is stale.
 */
function staleness(tr: Turn, facts: TurnFacts): TurnFacts {
  if (facts.outcome !== 'ok' || facts.calls.length === 0) return facts;
  tr.stale = tr.novelty.judge(facts.results) ? 0 : tr.stale + 1;
  return { ...facts, staleSteps: tr.stale, ...(tr.s.wrapUp ? { wrappedUp: true } : {}) };
}

/** The turn starts: its signal, its id, its cycle (an autonomous turn counts one). */
function begin(trigger: TurnTrigger, d: TurnDeps, mem: TurnMemory): Turn {
  const controller = new AbortController();
  mem.controller = controller;
  const turnId = ++mem.turns;
  if (autonomous(trigger)) mem.cycle += 1;
  d.bus.emit({ type: 'turn_start', turnId, trigger, cycle: mem.cycle });
  return {
    d,
    mem,
    trigger,
    turnId,
    cycle: mem.cycle,
    signal: controller.signal,
    failures: d.scheduler.consecutiveFailures,
    saver: new TurnSaver(d.history, (e) => d.bus.emit(e), turnId, d.writeFailures),
    phases: [],
    startedAt: Date.now(),
    t0: performance.now(),
    s: { step: 1 },
    handled: false,
    recoveryFailed: false,
    novelty: new Novelty(),
    stale: 0,
    reached: false,
  };
}

/**
 * Runs one block and records it in the trace. Once the turn is aborted a block before SAVE
 * does not run (it is recorded as aborted); SAVE and RESPOND always run. A throw is the
 * step's error, never the turn's.
 */
async function phase(tr: Turn, name: Phase, fn: () => Promise<Outcome>): Promise<Outcome> {
  const start = performance.now();
  let outcome: Outcome = 'aborted';
  let note: string | undefined;
  if (!tr.signal.aborted || name === 'SAVE' || name === 'RESPOND') {
    try {
      outcome = await fn();
    } catch (err) {
      outcome = 'error';
      note = err instanceof Error ? err.message : String(err);
      tr.s.error ??= { kind: 'internal', message: `${name} failed: ${note}` };
    }
  }
  tr.phases.push({
    phase: name,
    step: tr.s.step,
    startMs: Math.round(start - tr.t0),
    durationMs: Math.round(performance.now() - start),
    outcome: outcome === 'handled' || outcome === 'blocked' ? 'shortcut' : outcome,
    ...(note ? { note } : {}),
  });
  return outcome;
}

/**
 * RESTORE: the crash record of the last run first (a request is never built on a
 * half-finished history), then the user's input: a slash command, or messages saved now.
 */
async function restore(tr: Turn): Promise<Outcome> {
  const { d, mem } = tr;
  if (!mem.recovered && d.restore) {
    tr.recoveryFailed = true;
    const report = await d.restore();
    tr.recoveryFailed = false;
    mem.recovered = true;
    if (report.results > 0)
      d.bus.emit({ type: 'messages_replaced', messages: d.history.messages() });
    const text = crashNotice(report, d.settings.lang);
    if (text) d.bus.emit({ type: 'notice', level: 'warn', text });
  }
  if (tr.trigger !== 'user') return 'next';
  const input = d.inputs.take();
  tr.command = input.command;
  mem.commandInFlight = input.command !== undefined;
  if (input.messages.length === 0) return 'next';
  // A message queued while the last turn ran, which then ended with [WAIT]: the floor was
  // the user's, and their words are what this turn answers.
  if (d.store.getState().machine === 'AWAITING_INPUT') move(d, 'SUBMIT');
  // `@file` mentions: the files go with the message, read as the read tool reads them.
  const mentionDeps = { registry: d.registry, workspace: d.workspace, safety: d.safety };
  const messages: string[] = [];
  for (const text of input.messages)
    messages.push(await attachMentions(text, mentionDeps, tr.signal));
  tr.saver.userMessages(messages, input.keys);
  // In the history now: the inbox forgets them (a kill before this finds them there instead).
  d.inputs.settle(input);
  return 'next';
}

/**
 * COMMAND: a slash command handles the turn itself (no model call), also one that stops the
 * turn it runs in. After an answering command the floor goes back to the user.
 */
async function command(tr: Turn): Promise<Outcome> {
  const { d } = tr;
  if (tr.command === undefined || !d.commands) return 'next';
  const outcome = await d.commands(tr.command, tr.signal);
  // A skill run as `/name args`: its text is the user's turn, and the model answers it.
  if (outcome.prompt !== undefined && !tr.signal.aborted) {
    tr.saver.userMessages([outcome.prompt]);
    tr.mem.commandInFlight = false;
    tr.mem.userSpoke();
    return 'next';
  }
  if (outcome.after === 'listen' && can(d.store.getState().machine, 'WAIT')) move(d, 'WAIT');
  tr.handled = true;
  return 'handled';
}

/**
 * RUN: streams the reply, reads it once and runs its calls; each result is saved as its call
 * finishes. What streamed stays on the step for SAVE, also when this fails part-way.
 */
async function run(tr: Turn): Promise<Outcome> {
  const { d, s, signal, turnId } = tr;
  const ran = await request(tr);
  if (ran === undefined) return 'aborted';
  if (ran.error) {
    s.error = ran.error;
    return 'error';
  }
  if (signal.aborted) return 'aborted';
  const native = { calls: ran.calls, registry: d.registry };
  const parsed = await readReply(ran.reply, signal, d.settings.maxToolCallsPerReply, native);
  if (parsed === undefined) return 'aborted';
  ran.parsed = parsed;
  if (parsed.items.length === 0) return 'next';
  const replyId = tr.saver.replyAhead(ran.reply, ran.reasoning, parsed);
  tr.reply = ran.reply;
  // The turn's changes are one group, whichever step made them: /undo takes the turn back.
  tr.group ??= replyId;
  const change = { turn: tr.group, reply: replyId, trigger: tr.trigger, callIndex: 0 };
  ran.outcomes = await runToolCalls(
    parsed.items,
    { workspace: d.workspace, signal, change },
    { turnId, replyId },
    toolRunnerDeps(d, tr.saver),
    parsed.moreCalls,
  );
  return signal.aborted ? 'aborted' : 'next';
}

/**
 * RUN's request: streamed, and sent again (the same request, so a user's turn stays theirs)
 * after a back-off while it fails in a way another try may cure. A failed try's text is
 * dropped; its tokens still count. Undefined when an abort ended a back-off wait.
 */
async function request(tr: Turn): Promise<NonNullable<Step['ran']> | undefined> {
  const { d, s, signal, turnId } = tr;
  const built = s.built!;
  for (let failed = 0; ;) {
    const ran: NonNullable<Step['ran']> = {
      reply: '',
      reasoning: '',
      totalTokens: 0,
      outcomes: [],
    };
    s.ran = ran;
    try {
      await streamReply(
        {
          provider: d.provider,
          messages: built.messages,
          promptTokens: built.promptTokens,
          tools: built.tools,
          signal,
          turnId,
          redactor: d.safety.redactor,
          emit: (e) => d.bus.emit(e),
          countTokens: (text) => d.counter.count(text),
        },
        ran,
      );
    } finally {
      if (ran.contextTokens !== undefined) tr.context = ran.contextTokens;
    }
    const unsent = ran.error !== undefined && 'unsent' in ran.error && ran.error.unsent === true;
    if (!unsent && !(signal.aborted && ran.reply === '' && ran.reasoning === '')) tr.reached = true;
    if (!ran.error || signal.aborted) return ran;
    failed += 1;
    s.failedTries = failed;
    const delay = retryDelay(ran.error, failed, d.settings);
    if (delay === undefined) return ran;
    // The try is dropped: the retry streams the reply again. Its tokens stay counted.
    s.failedTokens = (s.failedTokens ?? 0) + ran.totalTokens;
    s.ran = undefined;
    const error = { ...ran.error, message: d.safety.redactor.redact(ran.error.message) };
    d.bus.emit({
      type: 'retrying',
      turnId,
      attempt: failed + 1,
      delayMs: delay,
      error,
      text: retryNotice(d.settings, error.message, failed + 1, delay),
    });
    if (!(await waitOrAbort(delay, signal, d.timers ?? realTimers))) return undefined;
    d.bus.emit({ type: 'request_start', turnId, promptTokens: built.promptTokens });
  }
}

/** How the step ended, and what RESPOND decides from. */
function factsOf(tr: Turn): TurnFacts {
  const { ran, built, error } = tr.s;
  const blocked = built?.blocked;
  const aborted = tr.signal.aborted ? 'aborted' : 'ok';
  const outcome = tr.handled
    ? 'command'
    : blocked !== undefined
      ? 'blocked'
      : error
        ? 'error'
        : aborted;
  return {
    turnId: tr.turnId,
    step: tr.s.step,
    outcome,
    wait: (ran?.parsed?.wait ?? false) && outcome === 'ok',
    reply: ran?.reply ?? '',
    calls: (ran?.parsed?.items ?? []).map((i) =>
      i.type === 'call' ? `${i.name}(${JSON.stringify(i.args)})` : i.raw,
    ),
    ...(error ? { error } : {}),
    ...(tr.s.failedTries !== undefined ? { failedTries: tr.s.failedTries } : {}),
    ...tr.saver.failures(),
    ...(blocked !== undefined ? { blocked } : {}),
    results: (ran?.outcomes ?? []).map((o) => `${o.call}\n${o.ok ? 'ok' : 'error'}\n${o.body}`),
    tokens: {
      total: (ran?.totalTokens ?? 0) + (tr.s.failedTokens ?? 0),
      ...(tr.context !== undefined ? { context: tr.context } : {}),
    },
  };
}

/** The turn is over: the always-on parts learn from it, and `turn_end` carries its trace. */
async function end(tr: Turn, result: TurnFacts): Promise<void> {
  const { d, mem } = tr;
  if (mem.controller?.signal === tr.signal) mem.controller = undefined;
  mem.commandInFlight = false;
  // The exact tokenizer is slow to load: only once the context passes a third of the window.
  if (!d.counter.exact && mem.contextTokens > d.settings.contextWindow / 3)
    void d.counter.preload();
  await d.alwaysOn.afterCycle(tr.trigger, result, d.inputs.size);
  // More input arrived (or a command and a message were queued together): answer it next.
  // Not when RESTORE could not finish the crash record: the input waits (it must follow the
  // recovered results), and the retry comes with the back-off, not in a tight loop.
  // A steer no tool boundary took (the turn ended first) is answered by the next user turn.
  for (const text of d.steers?.take() ?? []) d.inputs.push(text);
  if (d.inputs.size > 0 && !tr.recoveryFailed) d.scheduler.runUserTurn();
  const { turnId, trigger, startedAt, phases } = tr;
  const { outcome, wait } = result;
  const durationMs = Math.round(performance.now() - tr.t0);
  const trace = { turnId, trigger, startedAt, durationMs, phases, steps: tr.s.step, outcome };
  // No request of the turn reached the server (refused, not found, never sent): no cycle.
  const givenBack = autonomous(trigger) && !tr.reached && mem.cycle === tr.cycle;
  if (givenBack) mem.cycle -= 1;
  const cycle = givenBack ? { cycle: mem.cycle } : {};
  d.bus.emit({ type: 'turn_end', turnId, outcome, wait, trace, ...cycle });
}

/**
 * A tool boundary between steps: messages the user steered with are read now, saved as the
 * user's after the results (the calls they kept from starting answered "deferred by the
 * user"), and the next step answers them, in this same turn.
 */
function steerIn(tr: Turn): void {
  const texts = tr.d.steers?.take() ?? [];
  if (texts.length === 0) return;
  tr.saver.userMessages(texts);
  tr.mem.userSpoke();
  tr.steered = true;
  // The user's words are new: the chain is not a stale one any more.
  tr.stale = 0;
}

/** The machine moves through the store (the only writer), then the event says so. */
function move(d: TurnDeps, event: MachineEvent, reason?: string): void {
  const change = d.store.getState().dispatch(event, reason);
  if (change) d.bus.emit(change);
}

/**
 * BUILD: waits (bounded, abortable) for tool sources still connecting, so the request offers
 * their tools, then the request; one over a token budget is not sent.
 */
async function build(tr: Turn): Promise<Outcome> {
  const { d, s, trigger, cycle, signal } = tr;
  // The turn's tools and prompt are settled at its first request: later steps reuse them.
  const starting = tr.prompt === undefined ? (d.toolsReady?.starting() ?? []) : [];
  if (starting.length > 0) {
    const what = t(d.settings.lang, 'status.connectingMcp', { names: starting.join(', ') });
    d.bus.emit({ type: 'preparing', what });
    try {
      await d.toolsReady!.settled(signal);
    } finally {
      d.bus.emit({ type: 'preparing' });
    }
  }
  if (signal.aborted) return 'aborted';
  tr.prompt ??= d.systemPrompt();
  const history = d.history.messages();
  const request = buildTurnRequest({
    systemPrompt: tr.prompt,
    history,
    cycle,
    trigger,
    contextWindow: d.settings.contextWindow,
    sendReasoning: d.settings.sendReasoningInHistory,
    counter: d.counter,
    // The turn's note (time, reason, news) goes with its first request only: a later step
    // follows the results of its own calls, in the same turn. The wrap-up step has its own.
    note: s.step === 1 ? d.alwaysOn.noteFor(trigger, cycle, history) : wrapUpNote(tr, history),
    notes: d.alwaysOn.notes.map,
    // Native calls: the tools as JSON schemas, from the list the prompt's tool lines are made of.
    tools: d.settings.toolCalls === 'native' ? functionTools(d.registry.list()) : undefined,
  });
  const blocked = d.alwaysOn.budget.check(request.promptTokens)?.reason;
  s.built = blocked === undefined ? request : { ...request, blocked };
  if (blocked !== undefined) return 'blocked';
  // A request sent is the context's size until the server reports its own count.
  tr.context = request.promptTokens;
  d.bus.emit({ type: 'request_start', turnId: tr.turnId, promptTokens: request.promptTokens });
  return 'next';
}

/** What the chain's wrap-up request tells the model, pinned like a turn's note. */
export const WRAP_UP_NOTE =
  '(Your last calls brought nothing new. Stop calling tools now: answer with what you have.)';

/** The wrap-up step's note, pinned after the history so later requests keep it in place. */
function wrapUpNote(tr: Turn, history: readonly HistoryMessage[]): string | undefined {
  if (!tr.s.wrapUp) return undefined;
  tr.d.alwaysOn.notes.add(history, WRAP_UP_NOTE);
  return WRAP_UP_NOTE;
}

/** What the tool runner uses of the turn's parts; results are saved as each call finishes. */
function toolRunnerDeps(d: TurnDeps, saver: TurnSaver): ToolRunnerDeps {
  const settings = d.settings;
  return {
    registry: d.registry,
    emit: (e) => d.bus.emit(e),
    // Read when each call starts: an approval changed since the turn began counts.
    policy: (kind) => d.settings.approval[kind],
    lang: settings.lang,
    askApproval: (request, signal) => d.approvals.ask(request, signal),
    alwaysAllowed: d.alwaysAllowed,
    ...(settings.approvedKinds ? { approvedKinds: settings.approvedKinds } : {}),
    resultBudgetChars: settings.toolResultBudgetChars,
    secrets: d.secrets,
    safety: d.safety,
    maxCallsPerReply: settings.maxToolCallsPerReply,
    ownWrites: d.ownWrites,
    onOutcome: (index, outcome, through) => saver.result(index, outcome, through),
    steered: () => d.steers?.pending ?? false,
  };
}

/** SAVE: the reply (marked interrupted when cut short), or the results it still lacks. */
async function save(tr: Turn): Promise<Outcome> {
  const { d, s, saver, signal } = tr;
  const ran = s.ran;
  if (saver.replySaved) {
    saver.notRunResults(ran?.parsed?.items ?? []);
    return 'next';
  }
  if (!ran || !(ran.reply || ran.reasoning || ran.calls)) return 'next';
  // A reply that is only [WAIT] ends the turn silently: nothing empty is shown or stored.
  const p = ran.parsed;
  if (p && p.wait && p.text === '' && p.items.length === 0) return 'next';
  // Who cut the reply short matters to the model: the user, or a failure.
  const interrupted = signal.aborted;
  // A reply cut short before RUN read it is read here, the one time (not stopped by the
  // abort that cut it short; it still yields, so a hostile reply cannot hold up the loop).
  const native = { calls: ran.calls, registry: d.registry };
  const parsed =
    p ?? (await readReply(ran.reply, undefined, d.settings.maxToolCallsPerReply, native))!;
  tr.reply = ran.reply;
  saver.reply({
    reply: ran.reply,
    parsed,
    reasoning: ran.reasoning,
    trigger: tr.trigger,
    cycle: tr.cycle,
    interrupted,
    failed: !interrupted && s.error !== undefined,
  });
  return 'next';
}

/**
 * RESPOND's acts: the pure policy decides; here the turn reports, counts and moves the
 * machine, and goes on with its next step when the policy says so.
 */
function decide(
  tr: Turn,
  facts: TurnFacts,
): { report: TurnReport; more: boolean; wrapUp: boolean } {
  const { d, mem } = tr;
  const settings = d.settings;
  mem.unbudgetedTokens += facts.tokens.total;
  if (facts.tokens.context !== undefined) mem.contextTokens = facts.tokens.context;
  // The guards read their limits from the settings as they are now.
  const r = respond(facts, {
    ...settings,
    failures: tr.failures,
    cycle: mem.cycle,
    recentCalls: mem.recentCalls,
    redact: (text) => d.safety.redactor.redact(text),
  });
  for (const e of r.errors) d.bus.emit(e);
  if (r.countTokens) {
    const budget = d.alwaysOn.budget;
    budget.record(mem.unbudgetedTokens);
    d.bus.emit({
      type: 'budget',
      usedLastHour: budget.used(HOUR_MS),
      usedLastDay: budget.used(DAY_MS),
    });
  }
  // A step that went through has had its tokens counted (or dropped with a failed save).
  if (facts.outcome === 'ok') mem.unbudgetedTokens = 0;
  mem.recentCalls = r.recentCalls;
  // The user may have moved the machine while the turn ended (stopped or paused it, or sent
  // a message): their move stands, and the policy's event no longer applies.
  if (r.event && can(d.store.getState().machine, r.event)) {
    // The reply's [WAIT] gives the floor to the user: that is the open question (autonomous
    // unless the turn answered the user), asked before the move so every front end sees both.
    if (r.event === 'WAIT' && tr.reply !== undefined)
      d.alwaysOn.question.asked(tr.reply, autonomous(tr.trigger) && !tr.steered);
    move(d, r.event, r.reason);
    if (r.event === 'AUTO_PAUSE' && r.reason)
      d.bus.emit({ type: 'notice', level: 'warn', text: r.reason });
  }
  return { report: r.report, more: r.more, wrapUp: r.wrapUp };
}
