import type { TurnOutcomeKind } from '../api/trace.js';
import type { TurnFacts } from './turn.js';
import type { TurnRun } from './work.js';

/** How the turn ended, from what it produced: a command, blocked, failed, stopped or ok. */
function outcomeOf({ turn, work }: TurnRun): TurnOutcomeKind {
  if (work.handled) return 'command';
  if (work.blocked !== undefined) return 'blocked';
  if (work.error) return 'error';
  return turn.signal.aborted ? 'aborted' : 'ok';
}

/** What RESPOND decides from (and the agent learns after): everything but the trace. */
export function factsOf(run: TurnRun): TurnFacts {
  const { turn, work, saver } = run;
  const outcome = outcomeOf(run);
  return {
    turnId: turn.turnId,
    step: run.chain.step,
    outcome,
    wait: work.wait && outcome === 'ok',
    reply: work.reply,
    calls: work.items.map((i) =>
      i.type === 'call' ? `${i.name}(${JSON.stringify(i.args)})` : i.raw,
    ),
    ...(work.error ? { error: work.error } : {}),
    ...(saver.failed ? { saveFailed: saver.failed } : {}),
    ...(work.blocked !== undefined ? { blocked: work.blocked } : {}),
    results: work.outcomes.map((o) => `${o.call}\n${o.ok ? 'ok' : 'error'}\n${o.body}`),
    tokens: {
      total: work.totalTokens,
      ...(work.contextTokens !== undefined ? { context: work.contextTokens } : {}),
    },
  };
}
