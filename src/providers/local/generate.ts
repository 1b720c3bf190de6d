/**
 * One reply from a loaded model: renders the history through the model's chat wrapper,
 * streams each chunk to `emit` as provider events, and reports how generation ended.
 * Never rejects: a failure is returned as a `ProviderError`.
 */
import type { ChatHistoryItem, LlamaChatResponseChunk } from 'node-llama-cpp';
import { createThinkSplitter, type Segment } from '../thinkSplitter.js';
import type { ProviderError, ProviderEvent, Usage } from '../types.js';
import type { Engine } from './engine.js';
import { generationFailed } from './errors.js';

interface GenerateSettings {
  maxTokens: number;
  temperature: number;
}

export type GenerateOutcome =
  | { ok: true; reason: 'stop' | 'length' | 'aborted'; usage: Usage }
  | { ok: false; error: ProviderError };

function toEvents(segments: Segment[]): ProviderEvent[] {
  return segments.map((s) =>
    s.channel === 'reasoning'
      ? { type: 'reasoning_delta', text: s.text }
      : { type: 'text_delta', text: s.text },
  );
}

/**
 * Generates into `history`'s final (empty) model turn. Reasoning arrives two ways: as the
 * wrapper's `thought` segments (models whose template declares them, e.g. Qwen3, DeepSeek-R1)
 * or as `<think>` tags in plain text (templates that do not); both go to the reasoning pane.
 */
export async function generate(
  engine: Engine,
  history: ChatHistoryItem[],
  settings: GenerateSettings,
  signal: AbortSignal,
  emit: (event: ProviderEvent) => void,
): Promise<GenerateOutcome> {
  const splitter = createThinkSplitter();
  const sequence = engine.chat.sequence;
  const outputBefore = sequence.tokenMeter.usedOutputTokens;
  const inputBefore = sequence.tokenMeter.usedInputTokens;
  const onResponseChunk = (chunk: LlamaChatResponseChunk): void => {
    if (!chunk.text) return;
    if (chunk.type === 'segment') emit({ type: 'reasoning_delta', text: chunk.text });
    else for (const e of toEvents(splitter.push(chunk.text))) emit(e);
  };
  try {
    const result = await engine.chat.generateResponse(history, {
      onResponseChunk,
      signal,
      // Resolve with what was generated instead of throwing when the signal fires.
      stopOnAbortSignal: true,
      maxTokens: settings.maxTokens,
      temperature: settings.temperature,
      ...(engine.grammar ? { grammar: engine.grammar } : {}),
    });
    for (const e of toEvents(splitter.flush())) emit(e);
    const completionTokens = Math.max(0, sequence.tokenMeter.usedOutputTokens - outputBefore);
    // What the context holds now is the prompt as evaluated plus the reply.
    const promptTokens = Math.max(0, sequence.contextTokens.length - completionTokens);
    // LlamaChat keeps the sequence between turns and evaluates only the tokens after the
    // part of the prompt the KV cache already holds; the rest is counted as cached.
    const evaluated = sequence.tokenMeter.usedInputTokens - inputBefore;
    const cachedPromptTokens = Math.max(0, promptTokens - evaluated);
    const stop = result.metadata.stopReason;
    return {
      ok: true,
      reason: stop === 'abort' ? 'aborted' : stop === 'maxTokens' ? 'length' : 'stop',
      usage: {
        promptTokens,
        completionTokens,
        totalTokens: promptTokens + completionTokens,
        cachedPromptTokens,
      },
    };
  } catch (err) {
    if (signal.aborted) {
      return {
        ok: true,
        reason: 'aborted',
        usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      };
    }
    return { ok: false, error: generationFailed(err) };
  }
}
