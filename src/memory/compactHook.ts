import { t } from '../i18n/messages.js';
import type { Agent, AgentDeps } from '../agent/agent.js';
import type { HistoryPort } from '../pipeline/turn.js';
import type { CompactableHistory, Compactor } from './compactor.js';

/**
 * Binds a compactor to the agent's COMPACT phase and /compact: runs it on the current
 * session and tells the user what happened (it returns text only when it said nothing). After a compression the screen shows what the
 * model now sees (the summary and the recent messages); the originals are in the archive.
 */
export function createCompactHook(
  compactor: Compactor,
  current: () => CompactableHistory & HistoryPort,
): NonNullable<AgentDeps['compact']> {
  return async (agent: Agent, signal: AbortSignal, force: boolean) => {
    const history = current();
    const out = await compactor.run(history, signal, force);
    const lang = agent.settings.lang;
    if (out.kind === 'done') {
      agent.setHistory(history);
      agent.notice(
        t(lang, 'compact.done', {
          count: out.summarised,
          before: out.tokensBefore,
          after: out.tokensAfter,
        }),
      );
      return undefined;
    }
    if (out.kind === 'failed') {
      agent.notice(t(lang, 'compact.failed', { reason: out.reason }), 'warn');
      return undefined;
    }
    // Said only when asked for (/compact): otherwise there is nothing to tell.
    return force ? t(lang, 'cmd.nothingToCompact') : undefined;
  };
}
