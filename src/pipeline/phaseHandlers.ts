import { callCap } from './callCap.js';
import { runToolCalls } from './toolRunner.js';
import { parseReplyYielding } from '../protocol/parser.js';
import type { Phase, PhaseOutcome } from '../api/trace.js';
import { streamReply } from './stream.js';
import { factsOf } from './facts.js';
import { joinChain, nextStep, type TurnRun } from './work.js';

type Handler = (run: TurnRun) => Promise<PhaseOutcome>;

/**
 * RESTORE: first what the last run left unfinished (a crash record: a request must never be
 * built on a half-finished history), then the user's input queued for this turn: a slash
 * command for COMMAND, or messages, saved now so the request answers them.
 */
const restore: Handler = async ({ deps, work, saver }) => {
  if (deps.recover) await deps.recover();
  const input = deps.takeInput?.();
  if (input?.command !== undefined) work.command = input.command;
  if (input && input.messages.length > 0) saver.userMessages(input.messages);
  return 'next';
};

const compact: Handler = async ({ deps, turn }) => {
  if (deps.compact) await deps.compact(turn.signal);
  return 'next';
};

const command: Handler = async ({ deps, turn, work }) => {
  if (work.command === undefined || !deps.runCommand) return 'next';
  work.handled = await deps.runCommand(work.command, turn.signal);
  return work.handled ? 'shortcut' : 'next';
};

const build: Handler = async ({ deps, turn, work, chain }) => {
  if (deps.ready) await deps.ready(turn.signal);
  if (turn.signal.aborted) return 'aborted';
  const request = deps.buildRequest(deps.history.messages(), turn, chain.step);
  work.messages = request.messages;
  work.promptTokens = request.promptTokens;
  const blocked = deps.preflight?.(request.promptTokens);
  if (blocked !== undefined) {
    work.blocked = blocked;
    return 'shortcut';
  }
  work.contextTokens = request.promptTokens;
  deps.emit({ type: 'request_start', turnId: turn.turnId, promptTokens: request.promptTokens });
  return 'next';
};

const run: Handler = async (r) => {
  const { deps, turn, work, saver, chain } = r;
  await streamReply(r);
  if (work.error) return 'error';
  if (turn.signal.aborted) return 'aborted';
  // Yields while it parses: a hostile reply cannot hold off an interrupt.
  const cap = callCap(deps.tools.maxCallsPerReply);
  const parsed = await parseReplyYielding(work.reply, turn.signal, cap);
  if (parsed === undefined) return 'aborted';
  work.parsed = parsed;
  work.items = parsed.items;
  work.wait = parsed.wait;
  work.shown = parsed.text;
  if (parsed.items.length === 0) return 'next';
  const replyId = saver.replyAhead(work.reply, work.reasoning, parsed);
  // The turn's changes are one group, whichever step made them: /undo takes the turn back.
  chain.group ??= replyId;
  const change = { turn: chain.group, reply: replyId, trigger: turn.trigger, callIndex: 0 };
  work.outcomes = await runToolCalls(
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
};

/** SAVE: the reply (marked interrupted when cut short), or the results it still lacks. */
const save: Handler = async ({ deps, turn, work, saver }) => {
  if (work.handled) return 'next';
  if (saver.replySaved) {
    saver.notRunResults(work.items);
    return 'next';
  }
  // A reply that is only [WAIT] ends the turn silently: nothing empty is shown or stored.
  const onlyWait = work.wait && work.shown === '' && work.items.length === 0;
  if ((work.reply || work.reasoning) && !onlyWait) {
    // Who cut the reply short matters to the model: the user, or a failure.
    const interrupted = turn.signal.aborted;
    // A reply cut short before RUN read it is read here, the one time (not stopped by the
    // abort that cut it short; it still yields, so a hostile reply cannot hold up the loop).
    const parsed =
      work.parsed ??
      (await parseReplyYielding(work.reply, undefined, callCap(deps.tools.maxCallsPerReply)))!;
    saver.reply({
      reply: work.reply,
      parsed,
      reasoning: work.reasoning,
      trigger: turn.trigger,
      cycle: turn.cycle,
      interrupted,
      failed: !interrupted && work.error !== undefined,
    });
  }
  return 'next';
};

/**
 * RESPOND: the agent's policy decides what follows (and moves the machine) from the facts:
 * the turn's next step at once, with the results of the calls just made, or its end.
 */
const respond: Handler = async (r) => {
  const facts = factsOf(r);
  joinChain(r, facts.calls, facts.results);
  const verdict = r.deps.respond?.(facts);
  r.work.report = verdict?.report;
  r.work.facts = facts;
  if (verdict?.more !== true) return 'next';
  nextStep(r);
  return 'step';
};

export const PHASE_HANDLERS: Readonly<Record<Exclude<Phase, 'DONE'>, Handler>> = Object.freeze({
  RESTORE: restore,
  COMPACT: compact,
  COMMAND: command,
  BUILD: build,
  RUN: run,
  SAVE: save,
  RESPOND: respond,
});
