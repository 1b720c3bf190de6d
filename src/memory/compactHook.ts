import type { Agent, AgentDeps } from '../agent/agent.js';
import type { HistoryPort } from '../pipeline/turn.js';
import type { CompactableHistory, Compactor } from './compactor.js';

/**
 * Binds a compactor to the agent's COMPACT phase and /compact: runs it on the current
 * session and tells the user what happened. After a compression the screen shows what the
 * model now sees (the summary and the recent messages); the originals are in the archive.
 */
export function createCompactHook(
  compactor: Compactor,
  current: () => CompactableHistory & HistoryPort,
): NonNullable<AgentDeps['compact']> {
  return async (agent: Agent, signal: AbortSignal, force: boolean) => {
    const history = current();
    const out = await compactor.run(history, signal, force);
    if (out.kind === 'done') {
      agent.setHistory(history);
      const text = `compressed ${out.summarised} older messages into a summary (${out.tokensBefore} → ${out.tokensAfter} tokens); the originals are kept in the session's archive`;
      agent.notice(text);
      return text;
    }
    if (out.kind === 'failed') {
      const text = `could not compress the history (${out.reason}); older tool results are left out of requests instead, and nothing is lost`;
      agent.notice(text, 'warn');
      return text;
    }
    return force ? out.reason : undefined;
  };
}
