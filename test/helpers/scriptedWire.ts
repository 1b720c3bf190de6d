/**
 * The wire shapes the scripted server sends: OpenAI chat-completion chunks, completions and
 * error bodies. Kept apart from the server so the HTTP plumbing stays readable.
 */
import type { RecordedRequest, ScriptedToolCall, StreamStep } from './scriptedServer.js';

/** An array is used as is; a string is cut into ~4-character pieces (by code point, so CJK
 * and emoji are never split in half). */
export function pieces(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  const chars = Array.from(value);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += 4) out.push(chars.slice(i, i + 4).join(''));
  return out;
}

function joined(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join('') : (value ?? '');
}

/** Rough token counts so default usage numbers are plausible and deterministic. */
function usageFor(
  step: StreamStep,
  body: unknown,
): {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
} {
  const messages = (body as { messages?: unknown } | null)?.messages ?? [];
  const usage =
    step.usage ||
    ({
      prompt_tokens: Math.ceil(JSON.stringify(messages).length / 4),
      completion_tokens: Math.ceil(
        (joined(step.content).length + joined(step.reasoning).length) / 4,
      ),
    } as const);
  return { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
}

function modelOf(body: unknown): string {
  const model = (body as { model?: unknown } | null)?.model;
  return typeof model === 'string' ? model : 'scripted-model';
}

/** The JSON text of every chunk for a streamed step, in order (without `[DONE]`). */
export function buildChunks(step: StreamStep, rec: RecordedRequest): string[] {
  const id = `chatcmpl-scripted-${rec.index}`;
  const created = Math.floor(Date.now() / 1000);
  const model = modelOf(rec.body);
  const base = { id, object: 'chat.completion.chunk', created, model };
  const field = step.reasoningField ?? 'reasoning_content';
  const deltas: Record<string, unknown>[] = [
    ...pieces(step.reasoning).map((text) => ({ content: null, [field]: text })),
    ...pieces(step.content).map((text) => ({ content: text })),
    ...toolCallDeltas(step),
  ];
  const chunks: { choices: { index: number; delta: object; finish_reason: string | null }[] }[] =
    deltas.map((delta, i) => ({
      ...base,
      choices: [
        { index: 0, delta: i === 0 ? { role: 'assistant', ...delta } : delta, finish_reason: null },
      ],
    }));
  chunks.push({
    ...base,
    choices: [
      {
        index: 0,
        delta: deltas.length === 0 ? { role: 'assistant', content: '' } : {},
        finish_reason: finishOf(step),
      },
    ],
  });
  const options = (rec.body as { stream_options?: { include_usage?: unknown } }).stream_options;
  const texts = chunks.map((c) => JSON.stringify(c));
  if (options?.include_usage === true && step.usage !== false) {
    texts.push(JSON.stringify({ ...base, choices: [], usage: usageFor(step, rec.body) }));
  }
  return texts;
}

/** A complete non-streaming answer (`stream: false`), as summarisation will ask for. */
export function completionJson(step: StreamStep, body: unknown): unknown {
  const calls = step.toolCalls ?? [];
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: calls.length > 0 && joined(step.content) === '' ? null : joined(step.content),
    ...(calls.length > 0
      ? {
          tool_calls: calls.map((c, k) => ({
            ...(c.id === null ? {} : { id: c.id ?? `call_${k}` }),
            type: 'function',
            function: { name: c.name, arguments: joined(c.arguments) },
          })),
        }
      : {}),
  };
  if (step.reasoning !== undefined) {
    message[step.reasoningField ?? 'reasoning_content'] = joined(step.reasoning);
  }
  return {
    id: 'chatcmpl-scripted',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: modelOf(body),
    choices: [{ index: 0, message, finish_reason: finishOf(step) }],
    ...(step.usage === false ? {} : { usage: usageFor(step, body) }),
  };
}

function finishOf(step: StreamStep): string {
  return step.finishReason ?? ((step.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop');
}

/** The `delta.tool_calls` pieces of a step's calls: the head, then the arguments piece by piece. */
function toolCallDeltas(step: StreamStep): Record<string, unknown>[] {
  const perCall = (step.toolCalls ?? []).map((c: ScriptedToolCall, k) => {
    const at = c.noIndex === true ? {} : { index: k };
    const head = {
      ...at,
      ...(c.id === null ? {} : { id: c.id ?? `call_${k}` }),
      type: 'function',
      function: { name: c.name, arguments: '' },
    };
    const args = Array.isArray(c.arguments) ? c.arguments : [c.arguments];
    const rest = args.map((a) => ({ ...at, function: { arguments: a } }));
    return [head, ...rest].map((piece) => ({ content: null, tool_calls: [piece] }));
  });
  if (step.interleaveCalls !== true) return perCall.flat();
  const out: Record<string, unknown>[] = [];
  for (let i = 0; perCall.some((c) => i < c.length); i += 1) {
    for (const c of perCall) if (i < c.length) out.push(c[i]!);
  }
  return out;
}

/** An OpenAI-style error body. */
export function errorJson(status: number, message?: string, code?: string): unknown {
  return {
    error: {
      message: message ?? `scripted error ${status}`,
      type: status >= 500 ? 'server_error' : 'invalid_request_error',
      code: code ?? String(status),
    },
  };
}
