import { makeMessage, type HistoryMessage } from '../core/messages.js';
import type { AppendResult } from '../history/index.js';
import type { Provider } from '../providers/types.js';
import { buildSummaryRequest } from './summaryPrompt.js';
import { splitFlush } from './flush.js';
import type { TokenCounter } from './tokenCounter.js';

/** The part of a session compression needs. */
export interface CompactableHistory {
  messages(): readonly HistoryMessage[];
  archive(messages: readonly HistoryMessage[]): AppendResult;
  compact(summary: HistoryMessage, upToId: string): AppendResult;
}

interface CompactionSettings {
  contextWindow: number;
  /** Fraction of the window at which to compress (default 0.7). */
  compressAt: number;
  /** Compress when the history holds this many exchanges (default 150). */
  compressTurns: number;
}

export type CompactionOutcome =
  | { kind: 'done'; summarised: number; kept: number; tokensBefore: number; tokensAfter: number }
  | { kind: 'skipped'; reason: string }
  | { kind: 'failed'; reason: string };

/** Recent messages kept verbatim: this share of the window... */
const KEEP_RECENT_SHARE = 0.3;
/** ...and at most this many messages when the turn count triggered compression. */
const KEEP_RECENT_MESSAGES = 24;
/** After a failed summary, wait this many turns before trying again (unless forced). */
const RETRY_AFTER_TURNS = 5;

/**
 * Real compression: when the next request would pass `compressAt` of the context window, or
 * the history holds `compressTurns` exchanges, the model summarises all but the recent
 * messages (cut where a turn starts, preferably at the user's own message). The summary
 * replaces them in the live history; the originals go to the archive first, so nothing is
 * ever deleted. A failed or empty summary changes nothing (the request-side `fitHistory`
 * keeps requests within budget meanwhile).
 */
export class Compactor {
  private cooldown = 0;

  constructor(
    private readonly deps: {
      counter: TokenCounter;
      settings(): CompactionSettings;
      provider(): Provider;
      systemPrompt(): string;
      /**
       * The pre-compaction flush: given, the summary request also asks for the facts worth
       * keeping, and they are handed here (before the summary replaces the messages).
       */
      flush?(facts: string[]): void;
    },
  ) {}

  /** Why compression is due now, or undefined. */
  due(history: readonly HistoryMessage[]): 'tokens' | 'turns' | undefined {
    const s = this.deps.settings();
    const tokens = this.deps.counter.countContext(this.deps.systemPrompt(), history);
    if (tokens >= s.compressAt * s.contextWindow) return 'tokens';
    let exchanges = 0;
    for (const m of history) if (m.role === 'assistant' && !m.summary) exchanges++;
    if (exchanges >= s.compressTurns) return 'turns';
    return undefined;
  }

  /** Compresses when due (or always, when forced). Never throws. */
  async run(
    history: CompactableHistory,
    signal: AbortSignal,
    force = false,
  ): Promise<CompactionOutcome> {
    const messages = history.messages();
    const why = force ? 'forced' : this.due(messages);
    if (!why) return { kind: 'skipped', reason: 'not needed' };
    if (!force && this.cooldown > 0) {
      this.cooldown -= 1;
      return { kind: 'skipped', reason: 'a recent summary failed; waiting before trying again' };
    }
    const cut = this.cutIndex(messages, why === 'turns');
    if (cut <= 0) return { kind: 'skipped', reason: 'nothing old enough to summarise' };
    const older = messages.slice(0, cut);
    const tokensBefore = this.deps.counter.countContext(this.deps.systemPrompt(), messages);

    const summary = await this.summarise(older, signal);
    // Stopped by the user: not a failure, try again on the next turn.
    if (signal.aborted) return { kind: 'skipped', reason: 'interrupted' };
    if (!summary.ok) {
      this.cooldown = RETRY_AFTER_TURNS;
      return { kind: 'failed', reason: summary.reason };
    }
    if (this.deps.flush) {
      const split = splitFlush(summary.text);
      if (split.facts.length > 0) this.deps.flush(split.facts);
      if (split.summary !== '') summary.text = split.summary;
    }
    const archived = history.archive(older);
    if (!archived.ok)
      return {
        kind: 'failed',
        reason: `the archive could not be written: ${archived.error.message}`,
      };
    // The summary is the model's own writing about text that held pages and tool output:
    // it is kept and sent as an assistant note, never with a system turn's authority.
    const summaryMessage = makeMessage('assistant', summary.text, { summary: true });
    const compacted = history.compact(summaryMessage, older[older.length - 1]!.id);
    if (!compacted.ok)
      return {
        kind: 'failed',
        reason: `the history could not be updated: ${compacted.error.message}`,
      };
    this.cooldown = 0;
    return {
      kind: 'done',
      summarised: older.length,
      kept: messages.length - cut,
      tokensBefore,
      tokensAfter: this.deps.counter.countContext(this.deps.systemPrompt(), history.messages()),
    };
  }

  /**
   * Where the recent part starts: the earliest turn start whose suffix fits the keep budget,
   * preferring a user message. 0 means there is nothing to summarise.
   */
  private cutIndex(messages: readonly HistoryMessage[], byTurns: boolean): number {
    const s = this.deps.settings();
    const keepTokens = KEEP_RECENT_SHARE * s.contextWindow;
    let sum = 0;
    let candidate = messages.length;
    for (let i = messages.length - 1; i >= 0; i--) {
      sum += this.deps.counter.countMessage(messages[i]!);
      if (sum > keepTokens) break;
      if (byTurns && messages.length - i > KEEP_RECENT_MESSAGES) break;
      candidate = i;
    }
    // Always leave the last exchange verbatim, however large it is.
    const lastStart = messages.length - 2;
    const from = Math.min(candidate, Math.max(lastStart, 0));
    let turnStart = -1;
    for (let i = Math.max(from, 1); i < messages.length; i++) {
      const role = messages[i]!.role;
      if (role === 'user') return i;
      if (role === 'assistant' && turnStart < 0) turnStart = i;
    }
    return Math.max(turnStart, 0);
  }

  private async summarise(
    older: readonly HistoryMessage[],
    signal: AbortSignal,
  ): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
    let text = '';
    let failure: string | undefined;
    for await (const ev of this.deps.provider().stream({
      messages: buildSummaryRequest(older, undefined, this.deps.flush !== undefined),
      signal,
    })) {
      if (ev.type === 'text_delta') text += ev.text;
      if (ev.type === 'done' && ev.reason !== 'stop' && ev.reason !== 'length') {
        failure =
          ev.reason === 'aborted'
            ? 'interrupted'
            : (ev.error?.message ?? 'the summary request failed');
      }
    }
    if (failure) return { ok: false, reason: failure };
    const trimmed = text.replace(/<think>[\s\S]*?<\/think>/g, '').trim();
    if (trimmed.length === 0) return { ok: false, reason: 'the model returned an empty summary' };
    return { ok: true, text: trimmed };
  }
}
