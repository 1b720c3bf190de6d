import type { ChatMessage, HistoryMessage } from '../core/messages.js';

/**
 * A fast token estimate for when the server sends no usage (and to size the next request
 * before it is sent). CJK characters are about one token each; other text about four
 * characters a token. Deliberately cheap: it runs on every turn over the whole context.
 */
function estimateTokens(text: string): number {
  let cjk = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (
      (c >= 0x3000 && c <= 0x9fff) ||
      (c >= 0xac00 && c <= 0xd7af) ||
      (c >= 0xf900 && c <= 0xfaff)
    )
      cjk++;
  }
  return cjk + Math.ceil((text.length - cjk) / 4);
}

type Encode = (text: string, options: { disallowedSpecial: Set<string> }) => number[];

/** Per-message overhead of the chat format (role markers), as OpenAI documents it. */
const MESSAGE_OVERHEAD = 4;
const NO_SPECIALS = { disallowedSpecial: new Set<string>() };
/**
 * Message counts kept per generation. Every request counts the whole live history, so what is
 * in it stays cached across a turnover; messages compression has replaced are let go. A
 * history is at most `compressTurns` (150 by default) messages plus a summary.
 */
export const TOKEN_CACHE_LIMIT = 2_000;

/**
 * Counts tokens with gpt-tokenizer once it has loaded (about 150 ms, done in the background
 * so start-up does not wait for it) and with a fast estimate until then. Counts of stored
 * messages are cached by id, so sizing the next request costs only the new messages.
 */
export class TokenCounter {
  private encode: Encode | undefined;
  private loading: Promise<void> | undefined;
  // Two generations: a full `cache` becomes `older` (the previous one is dropped), and a hit
  // in `older` moves forward. Without a bound every message of a day-long session stayed.
  private cache = new Map<string, number>();
  private older = new Map<string, number>();

  constructor(private readonly cacheLimit = TOKEN_CACHE_LIMIT) {}

  /** Starts loading the tokenizer; resolves when exact counts are available. */
  preload(): Promise<void> {
    this.loading ??= import('gpt-tokenizer')
      .then((m) => {
        this.encode = m.encode as unknown as Encode;
        // Estimates cached before the tokenizer arrived are replaced lazily.
        this.cache.clear();
        this.older.clear();
        this.lastSystem = undefined;
      })
      .catch(() => {
        // Without the tokenizer the estimate still works; nothing to report.
      });
    return this.loading;
  }

  get exact(): boolean {
    return this.encode !== undefined;
  }

  count(text: string): number {
    if (!this.encode) return estimateTokens(text);
    try {
      return this.encode(text, NO_SPECIALS).length;
    } catch {
      return estimateTokens(text);
    }
  }

  countMessage(message: HistoryMessage): number {
    let n = this.cache.get(message.id);
    if (n !== undefined) return n;
    n = this.older.get(message.id) ?? MESSAGE_OVERHEAD + this.count(sentText(message));
    if (this.cache.size >= this.cacheLimit) {
      this.older = this.cache;
      this.cache = new Map();
    }
    this.cache.set(message.id, n);
    return n;
  }

  /** Message counts held now (both generations: at most twice the limit). */
  get cachedMessages(): number {
    return this.cache.size + this.older.size;
  }

  /** The size of a request: system prompt plus stored messages (cached) plus extras. */
  countContext(systemPrompt: string, history: readonly HistoryMessage[], extra = ''): number {
    if (this.lastSystem?.text !== systemPrompt)
      this.lastSystem = { text: systemPrompt, n: this.count(systemPrompt) };
    let total = 3 + MESSAGE_OVERHEAD + this.lastSystem.n;
    for (const m of history) total += this.countMessage(m);
    if (extra) total += MESSAGE_OVERHEAD + this.count(extra);
    return total;
  }

  private lastSystem: { text: string; n: number } | undefined;

  countChat(messages: readonly ChatMessage[]): number {
    let total = 3;
    for (const m of messages) {
      const calls = (m.toolCalls ?? []).map((c) => c.name + c.arguments).join('\n');
      total += MESSAGE_OVERHEAD + this.count(calls ? `${m.content}\n${calls}` : m.content);
    }
    return total;
  }
}

/** What a stored message costs when sent: its content, and a reply's native calls with it. */
function sentText(m: HistoryMessage): string {
  const calls = (m.parts?.items ?? []).flatMap((p) =>
    p.type === 'call' && p.native !== undefined ? [`${p.name ?? ''}${p.native.arguments}`] : [],
  );
  return calls.length === 0 ? m.content : [m.content, ...calls].join('\n');
}
