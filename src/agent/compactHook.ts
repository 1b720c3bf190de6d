import { t, type Lang } from '../i18n/messages.js';
import type { CompactFn } from '../agent/agentDeps.js';
import type { TurnHistory } from '../pipeline/saver.js';
import type { CompactableHistory, Compactor } from '../memory/compactor.js';

/** A history the compactor can shrink and the agent can read. */
export type CompactedHistory = CompactableHistory & TurnHistory;

/** What the compactor needs from the agent around it: nothing more. */
export interface CompactDeps {
  /** The current session's history (the one the next request is built from). */
  history(): CompactedHistory;
  /** Shows `history` as it is now (after a compression: the summary and the recent part). */
  replaceHistory(history: CompactedHistory): void;
  notice(text: string, level?: 'info' | 'warn'): void;
  /** The language to tell the user in. */
  lang(): Lang;
}

/**
 * Binds a compactor to the agent's COMPACT phase and /compact: runs it on the current
 * session and tells the user what happened. It returns text only when it said nothing (the
 * "nothing to compact" answer to /compact). After a compression the screen shows what the
 * model now sees; the originals are in the archive.
 */
export function createCompactHook(compactor: Pick<Compactor, 'run'>, port: CompactDeps): CompactFn {
  return async (signal: AbortSignal, force: boolean) => {
    const history = port.history();
    const out = await compactor.run(history, signal, force);
    const lang = port.lang();
    if (out.kind === 'done') {
      port.replaceHistory(history);
      port.notice(
        t(lang, 'compact.done', {
          count: out.summarised,
          before: out.tokensBefore,
          after: out.tokensAfter,
        }),
      );
      return undefined;
    }
    if (out.kind === 'failed') {
      port.notice(t(lang, 'compact.failed', { reason: out.reason }), 'warn');
      return undefined;
    }
    // Said only when asked for (/compact): otherwise there is nothing to tell.
    return force ? t(lang, 'cmd.nothingToCompact') : undefined;
  };
}
