/**
 * What each phase of a turn does, as functions from what the phases before made to what the
 * phases after need. No handler writes into a shared record: each returns its value, and the
 * walker (turn.ts) threads the values and records the outcomes in the trace.
 */
import type { ChatMessage, FunctionTool } from '../core/messages.js';
import type { PhaseOutcome } from '../api/trace.js';
import type { CallItem, ParsedReply } from '../protocol/parser.js';
import { parseReplyYielding } from '../protocol/parser.js';
import { withNativeCalls } from '../protocol/functionCalls.js';
import { paramNames } from '../tools/functionSchemas.js';
import { callCap } from './callCap.js';
import { runToolCalls, type CallOutcome } from './toolRunner.js';
import { emptyReply, streamReply, type StreamedReply } from './stream.js';
import type { TurnSaver } from './saver.js';
import type { StepVerdict, TurnDeps, TurnFacts, TurnInput } from './turn.js';

/** What every phase of a turn shares: the turn, its deps and the one writer of its messages. */
export interface TurnContext {
  turn: TurnInput;
  deps: TurnDeps;
  saver: TurnSaver;
}

/**
 * How a handler ended. The phase table and `/trace` know one `shortcut`; inside the turn its
 * two meanings have two names: COMMAND `handled` the turn itself (on to DONE), and BUILD was
 * `blocked` by a token budget and sent nothing (on to RESPOND, which pauses).
 */
export type HandlerOutcome = Exclude<PhaseOutcome, 'shortcut'> | 'handled' | 'blocked';

/** The outcome as the phase table and the trace name it. */
export function traceOutcome(outcome: HandlerOutcome): PhaseOutcome {
  return outcome === 'handled' || outcome === 'blocked' ? 'shortcut' : outcome;
}

/** A handler's answer: how its phase ended, the value the next phases need, and why it failed. */
export interface Handled<T> {
  outcome: HandlerOutcome;
  value: T;
  note?: string;
}

const next = <T>(value: T): Handled<T> => ({ outcome: 'next', value });

/**
 * RESTORE: first what the last run left unfinished (a crash record: a request must never be
 * built on a half-finished history), then the user's input queued for this turn: the slash
 * command for COMMAND, or messages, saved now so the request answers them.
 */
export async function restore({ deps, saver }: TurnContext): Promise<Handled<string | undefined>> {
  if (deps.recover) await deps.recover();
  const input = deps.takeInput?.();
  if (input && input.messages.length > 0) saver.userMessages(input.messages);
  return next(input?.command);
}

export async function compact({ deps, turn }: TurnContext): Promise<Handled<void>> {
  if (deps.compact) await deps.compact(turn.signal);
  return next(undefined);
}

/**
 * COMMAND: a slash command handles the turn itself (no model call), always: also one that
 * stops the turn it runs in (/pause and /stop abort it), which is still a command's turn.
 */
export async function command(
  { deps, turn }: TurnContext,
  text: string | undefined,
): Promise<Handled<void>> {
  if (text === undefined || !deps.runCommand) return next(undefined);
  await deps.runCommand(text, turn.signal);
  return { outcome: 'handled', value: undefined };
}

/** BUILD's value: the request and its estimated size, and why it was not sent (if it was not). */
export interface Built {
  messages: ChatMessage[];
  promptTokens: number;
  tools?: readonly FunctionTool[];
  blocked?: string;
}

export async function build(
  { deps, turn }: TurnContext,
  step: number,
): Promise<Handled<Built | undefined>> {
  if (deps.ready) await deps.ready(turn.signal);
  if (turn.signal.aborted) return { outcome: 'aborted', value: undefined };
  const request = deps.buildRequest(deps.history.messages(), turn, step);
  const blocked = deps.preflight?.(request.promptTokens);
  if (blocked !== undefined) return { outcome: 'blocked', value: { ...request, blocked } };
  deps.emit({ type: 'request_start', turnId: turn.turnId, promptTokens: request.promptTokens });
  return next(request);
}

/** RUN's value: the streamed reply, RUN's one reading of it, its calls' outcomes. */
export interface Ran extends StreamedReply {
  /** Absent when the reply was cut short before it was read (SAVE reads it then). */
  parsed?: ParsedReply;
  outcomes: CallOutcome[];
  /** The id of the turn's first reply with calls: the change journal groups the turn by it. */
  group?: string;
}

/**
 * RUN: streams the reply, reads it once and runs its calls. A failure part-way still hands
 * on what was streamed, so SAVE keeps it.
 */
export async function run(
  ctx: TurnContext,
  request: Built,
  group: string | undefined,
): Promise<Handled<Ran>> {
  const ran: Ran = { ...emptyReply(), outcomes: [], ...(group !== undefined ? { group } : {}) };
  try {
    return { outcome: await runInto(ctx, request, ran), value: ran };
  } catch (err) {
    return { outcome: 'error', value: ran, note: err instanceof Error ? err.message : String(err) };
  }
}

async function runInto(
  { deps, turn, saver }: TurnContext,
  request: Built,
  ran: Ran,
): Promise<HandlerOutcome> {
  await streamReply({ turn, deps, ...request }, ran);
  if (ran.error) return 'error';
  if (turn.signal.aborted) return 'aborted';
  // Yields while it parses: a hostile reply cannot hold off an interrupt.
  const cap = callCap(deps.tools.maxCallsPerReply);
  const read = await parseReplyYielding(ran.reply, turn.signal, cap);
  if (read === undefined) return 'aborted';
  const { registry } = deps.tools;
  const parsed = withNativeCalls(read, ran.reply, ran.calls, (n) => paramNames(registry.get(n)));
  ran.parsed = parsed;
  if (parsed.items.length === 0) return 'next';
  const replyId = saver.replyAhead(ran.reply, ran.reasoning, parsed);
  // The turn's changes are one group, whichever step made them: /undo takes the turn back.
  ran.group ??= replyId;
  const change = { turn: ran.group, reply: replyId, trigger: turn.trigger, callIndex: 0 };
  ran.outcomes = await runToolCalls(
    parsed.items,
    { workspace: deps.workspace, signal: turn.signal, change },
    turn.turnId,
    {
      ...deps.tools,
      emit: deps.emit,
      onOutcome: (index, outcome, through) => saver.result(index, outcome, through),
    },
    parsed.moreCalls,
  );
  return turn.signal.aborted ? 'aborted' : 'next';
}

/** The calls RUN read from the reply (none when it was not read). */
export const itemsOf = (ran: Ran | undefined): readonly CallItem[] => ran?.parsed?.items ?? [];

/** SAVE: the reply (marked interrupted when cut short), or the results it still lacks. */
export async function save(
  { deps, turn, saver }: TurnContext,
  ran: Ran | undefined,
  failed: boolean,
): Promise<Handled<void>> {
  if (saver.replySaved) {
    saver.notRunResults(itemsOf(ran));
    return next(undefined);
  }
  if (!ran || !(ran.reply || ran.reasoning)) return next(undefined);
  // A reply that is only [WAIT] ends the turn silently: nothing empty is shown or stored.
  const p = ran.parsed;
  if (p && p.wait && p.text === '' && p.items.length === 0) return next(undefined);
  // Who cut the reply short matters to the model: the user, or a failure.
  const interrupted = turn.signal.aborted;
  // A reply cut short before RUN read it is read here, the one time (not stopped by the
  // abort that cut it short; it still yields, so a hostile reply cannot hold up the loop).
  const parsed =
    p ?? (await parseReplyYielding(ran.reply, undefined, callCap(deps.tools.maxCallsPerReply)))!;
  saver.reply({
    reply: ran.reply,
    parsed,
    reasoning: ran.reasoning,
    trigger: turn.trigger,
    cycle: turn.cycle,
    interrupted,
    failed: !interrupted && failed,
  });
  return next(undefined);
}

/**
 * RESPOND: the agent's policy decides what follows (and moves the machine) from the step's
 * facts: the turn's next step at once, with the results of the calls just made, or its end.
 */
export async function respond(
  { deps }: TurnContext,
  facts: TurnFacts,
): Promise<Handled<StepVerdict | undefined>> {
  const verdict = deps.respond?.(facts);
  return { outcome: verdict?.more === true ? 'step' : 'next', value: verdict };
}
