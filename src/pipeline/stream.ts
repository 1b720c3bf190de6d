import type { ChatMessage, FunctionTool, NativeToolCall } from '../core/messages.js';
import type { ProviderEvent, TurnError } from '../providers/types.js';
import { StreamRedactor, type Redactor } from '../core/redact.js';
import type { AgentEvent } from '../api/events.js';
import type { Provider } from '../providers/types.js';
import { parseReplyYielding, type ParsedReply } from '../protocol/parser.js';
import { StreamingParts } from '../protocol/streamingParts.js';
import { callCap } from './toolRunner.js';
import { withNativeCalls } from '../protocol/functionCalls.js';
import { paramNames } from '../tools/functionSchemas.js';
import type { ToolRegistry } from '../tools/registry.js';

export type { ParsedReply } from '../protocol/parser.js';

/**
 * The reply read, once: its text, its calls (at most the per-reply cap, the rest counted) and
 * [WAIT]. It yields while it reads, so a hostile reply cannot hold off an interrupt; undefined
 * when `signal` aborted it.
 */
export async function readReply(
  reply: string,
  signal: AbortSignal | undefined,
  maxCallsPerReply: number | undefined,
  /** The server's native calls: they follow the text's calls, read like them. */
  native?: { calls?: readonly NativeToolCall[] | undefined; registry: ToolRegistry },
): Promise<ParsedReply | undefined> {
  const parsed = await parseReplyYielding(reply, signal, callCap(maxCallsPerReply));
  if (parsed === undefined || native === undefined) return parsed;
  const { registry } = native;
  return withNativeCalls(parsed, reply, native.calls, (name) => paramNames(registry.get(name)));
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
  /** The server's native function calls, whole (arguments redacted like the text). */
  calls?: NativeToolCall[];
}

/** What the stream reads: the request BUILD made, and where what it shows goes. */
export interface StreamInput {
  provider: Provider;
  messages: ChatMessage[];
  promptTokens: number;
  /** The tools as JSON schemas (`toolCalls: "native"`). */
  tools?: readonly FunctionTool[] | undefined;
  signal: AbortSignal;
  turnId: number;
  /** The model's own text is redacted before it is shown, stored or exported. */
  redactor?: Redactor;
  emit(event: AgentEvent): void;
  /** Counts tokens of a text, for the usage estimate when the server sends none. */
  countTokens(text: string): number;
}

/**
 * RUN's first half: streams the reply into `out`, emitting what it shows. `out` is RUN's own
 * value, filled as the text arrives, so a stream cut short (or one that throws) still leaves
 * what came for SAVE.
 */
export async function streamReply(input: StreamInput, out: StreamedReply): Promise<void> {
  // The reply is read here, once, as it streams: the events carry what was read.
  const reader = new StreamingParts();
  const streams = modelTextStreams(input, out, reader);
  const usage = { got: false };
  input.emit({ type: 'message_start', turnId: input.turnId });
  try {
    for await (const ev of input.provider.stream({
      messages: input.messages,
      signal: input.signal,
      ...(input.tools ? { tools: input.tools } : {}),
    })) {
      if (ev.type === 'tool_call') keepCall(out, ev.call, input.redactor);
      else if (ev.type === 'reasoning_delta') streams.reasoning(ev.text);
      else if (ev.type === 'text_delta') streams.text(ev.text);
      else {
        // The tail held back for redaction belongs to the reply before usage is estimated.
        if (ev.type === 'done') streams.flush();
        streamEvent(ev, input, out, usage);
      }
    }
  } finally {
    streams.flush();
    input.emit({ type: 'message_end', turnId: input.turnId, parts: reader.finish() });
  }
}

/** A native call, kept for RUN to read; its arguments are the model's text, redacted alike. */
function keepCall(out: StreamedReply, call: NativeToolCall, redactor?: Redactor): void {
  const args = redactor ? redactor.redact(call.arguments) : call.arguments;
  (out.calls ??= []).push({ ...call, arguments: args });
}

/** Sinks for the model's reasoning and text: redacted (across deltas), kept and emitted. */
function modelTextStreams(
  { turnId, emit, redactor }: StreamInput,
  out: StreamedReply,
  reader: StreamingParts,
): {
  reasoning(t: string): void;
  text(t: string): void;
  flush(): void;
} {
  const reasoning = redactor ? new StreamRedactor(redactor) : undefined;
  const text = redactor ? new StreamRedactor(redactor) : undefined;
  const addReasoning = (t: string): void => {
    if (t === '') return;
    out.reasoning += t;
    emit({ type: 'reasoning_delta', turnId, text: t });
  };
  const addText = (t: string): void => {
    if (t === '') return;
    out.reply += t;
    emit({ type: 'message_update', turnId, delta: t, parts: reader.push(t) });
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
  { turnId, emit, countTokens, promptTokens }: StreamInput,
  out: StreamedReply,
  usage: { got: boolean },
): void {
  switch (ev.type) {
    case 'usage':
      usage.got = true;
      countUsage(out, ev.usage.promptTokens, ev.usage.totalTokens);
      emit({ type: 'usage', turnId, usage: ev.usage, estimated: false });
      break;
    case 'done':
      // A request that failed or was stopped before anything came back (never sent, refused,
      // answered with an error status) is not estimated: it costs no budget.
      if (!usage.got && (ev.reason === 'stop' || ev.reason === 'length' || produced(out))) {
        // No usage from the server: account an estimate, so budgets still hold.
        // Native calls are the model's output too (they arrive before `done`).
        const calls = (out.calls ?? []).map((c) => c.name + c.arguments).join('');
        const completionTokens = countTokens(out.reasoning + out.reply + calls);
        const estimate = {
          promptTokens,
          completionTokens,
          totalTokens: promptTokens + completionTokens,
        };
        countUsage(out, estimate.promptTokens, estimate.totalTokens);
        emit({ type: 'usage', turnId, usage: estimate, estimated: true });
      }
      if (ev.reason === 'error')
        out.error = ev.error ?? { kind: 'unknown', message: 'the model request failed' };
      break;
  }
}

/** Something of the reply came back: text, reasoning or a call. */
function produced(out: StreamedReply): boolean {
  return out.reply !== '' || out.reasoning !== '' || (out.calls?.length ?? 0) > 0;
}

/** The turn keeps its own token count: budgets and the tokenizer decide from it, not the screen. */
function countUsage(out: StreamedReply, promptTokens: number, totalTokens: number): void {
  out.totalTokens += totalTokens;
  out.contextTokens = promptTokens;
}
