import type { ChatMessage } from '../core/messages.js';
import type { ProviderEvent, TurnError } from '../providers/types.js';
import type { TurnDeps, TurnInput } from './turn.js';
import type { Redactor } from '../core/redact.js';
import { StreamingParts } from '../protocol/streamingParts.js';

/**
 * Redaction for text that arrives in pieces (the model's streamed reply): a key split over
 * two deltas must be caught too, so the tail that could still be the start of a secret is
 * held back until more text arrives or the stream ends.
 */
/** Room for whitespace a key may be split with, on top of the key's own length. */
const SLACK = 32;

/** Feeds deltas through a {@link Redactor}; `push` and `flush` return what is safe to show. */
export class StreamRedactor {
  private pending = '';
  private readonly hold: number;

  constructor(private readonly redactor: Redactor) {
    this.hold = redactor.empty ? 0 : redactor.longest + SLACK;
  }

  /** Adds a delta; returns the redacted text that can be shown now (maybe empty). */
  push(delta: string): string {
    if (this.hold === 0) return delta;
    this.pending += delta;
    let cut = this.pending.length - this.hold;
    if (cut <= 0) return '';
    // Never cut through a secret found in the buffer: hold it back whole.
    for (const [a, b] of this.redactor.ranges(this.pending)) {
      if (a < cut && cut < b) cut = a;
    }
    const ready = this.pending.slice(0, cut);
    this.pending = this.pending.slice(cut);
    return this.redactor.redact(ready);
  }

  /** The stream ended: the rest, redacted. */
  flush(): string {
    const rest = this.redactor.redact(this.pending);
    this.pending = '';
    return rest;
  }
}

/** What RUN streamed: the reply (redacted) as it came, its usage, or the error that ended it. */
export interface StreamedReply {
  reply: string;
  reasoning: string;
  /** Tokens the server (or the estimate) reported for this request. */
  totalTokens: number;
  /** The prompt's size as the server (or the estimate) reported it. */
  contextTokens?: number;
  error?: TurnError;
}

export function emptyReply(): StreamedReply {
  return { reply: '', reasoning: '', totalTokens: 0 };
}

/** What the stream reads: the turn, its deps and the request BUILD made. */
interface StreamInput {
  turn: TurnInput;
  deps: TurnDeps;
  messages: ChatMessage[];
  promptTokens: number;
}

/**
 * RUN's first half: streams the reply into `out`, emitting what it shows. `out` is RUN's own
 * value, filled as the text arrives, so a stream cut short (or one that throws) still leaves
 * what came for SAVE.
 */
export async function streamReply(input: StreamInput, out: StreamedReply): Promise<void> {
  const { turn, deps } = input;
  // The model's own text is redacted before it is shown, stored or exported.
  const reader = new StreamingParts();
  const streams = modelTextStreams(input, out, reader);
  const usage = { got: false };
  deps.emit({ type: 'message_start', turnId: turn.turnId });
  try {
    for await (const ev of deps
      .provider()
      .stream({ messages: input.messages, signal: turn.signal })) {
      if (ev.type === 'reasoning_delta') streams.reasoning(ev.text);
      else if (ev.type === 'text_delta') streams.text(ev.text);
      else {
        // The tail held back for redaction belongs to the reply before usage is estimated.
        if (ev.type === 'done') streams.flush();
        streamEvent(ev, input, out, usage);
      }
    }
  } finally {
    streams.flush();
    deps.emit({ type: 'message_end', turnId: turn.turnId, parts: reader.parts });
  }
}

/** Sinks for the model's reasoning and text: redacted (across deltas), kept and emitted. */
function modelTextStreams(
  { turn, deps }: StreamInput,
  out: StreamedReply,
  reader: StreamingParts,
): {
  reasoning(t: string): void;
  text(t: string): void;
  flush(): void;
} {
  const redactor = deps.tools.safety?.redactor;
  const reasoning = redactor ? new StreamRedactor(redactor) : undefined;
  const text = redactor ? new StreamRedactor(redactor) : undefined;
  const addReasoning = (t: string): void => {
    if (t === '') return;
    out.reasoning += t;
    deps.emit({ type: 'reasoning_delta', turnId: turn.turnId, text: t });
  };
  const addText = (t: string): void => {
    if (t === '') return;
    out.reply += t;
    // The reply is read here, once, as it streams: the event carries what was read.
    deps.emit({ type: 'message_update', turnId: turn.turnId, delta: t, parts: reader.push(t) });
  };
  // A switch of channel ends the other one's run: its tail, held back in case a secret
  // went on in the next delta, is shown now (reasoning does not stop mid-word while the
  // reply streams).
  return {
    reasoning: (t) => {
      if (text) addText(text.flush());
      addReasoning(reasoning ? reasoning.push(t) : t);
    },
    text: (t) => {
      if (reasoning) addReasoning(reasoning.flush());
      addText(text ? text.push(t) : t);
    },
    flush: () => {
      if (reasoning) addReasoning(reasoning.flush());
      if (text) addText(text.flush());
    },
  };
}

/** Usage and the end of the stream (the deltas go through {@link modelTextStreams}). */
function streamEvent(
  ev: ProviderEvent,
  { turn, deps, promptTokens }: StreamInput,
  out: StreamedReply,
  usage: { got: boolean },
): void {
  switch (ev.type) {
    case 'usage':
      usage.got = true;
      countUsage(out, ev.usage.promptTokens, ev.usage.totalTokens);
      deps.emit({ type: 'usage', turnId: turn.turnId, usage: ev.usage, estimated: false });
      break;
    case 'done':
      if (!usage.got) {
        // No usage from the server: account an estimate, so budgets still hold.
        const completionTokens = deps.countTokens(out.reasoning + out.reply);
        const estimate = {
          promptTokens,
          completionTokens,
          totalTokens: promptTokens + completionTokens,
        };
        countUsage(out, estimate.promptTokens, estimate.totalTokens);
        deps.emit({ type: 'usage', turnId: turn.turnId, usage: estimate, estimated: true });
      }
      if (ev.reason === 'error')
        out.error = ev.error ?? { kind: 'unknown', message: 'the model request failed' };
      break;
  }
}

/** The turn keeps its own token count: budgets and the tokenizer decide from it, not the screen. */
function countUsage(out: StreamedReply, promptTokens: number, totalTokens: number): void {
  out.totalTokens += totalTokens;
  out.contextTokens = promptTokens;
}
