/**
 * One loaded local model, ready to chat: the model's weights, a context (its KV cache) with
 * one sequence, and a `LlamaChat` on it whose chat wrapper is resolved from the model's own
 * metadata (its Jinja chat template, or a known family), so prompts are rendered the way the
 * model was trained. Opening never throws: each step's failure is a `ProviderError`.
 */
import type { Llama, LlamaChat, LlamaContext, LlamaGrammar, LlamaModel } from 'node-llama-cpp';
import type { ProviderError } from '../types.js';
import { contextFailed, grammarFailed, modelLoadFailed } from './errors.js';
import { inspectModelFile } from './modelFile.js';
import {
  defaultLoader,
  llamaErrorSince,
  llamaLogMark,
  loadRuntime,
  type GpuMode,
  type LlamaLoader,
  type LlamaModule,
} from './runtime.js';

/** The context size when none is configured: fits a 7–8B Q4 model's cache in ~1 GB. */
const DEFAULT_LOCAL_CONTEXT_SIZE = 8192;

export interface EngineOptions {
  modelPath: string;
  /** Tokens the context holds; default `DEFAULT_LOCAL_CONTEXT_SIZE`, capped by memory. */
  contextSize?: number;
  /** CPU threads; default the cores useful for math (more would only contend). */
  threads?: number;
  gpu?: GpuMode;
  /** A GBNF grammar every reply must match (tests, constrained output). */
  grammar?: string;
  loader?: LlamaLoader;
}

export interface Engine {
  readonly mod: LlamaModule;
  readonly llama: Llama;
  readonly model: LlamaModel;
  readonly context: LlamaContext;
  readonly chat: LlamaChat;
  readonly grammar: LlamaGrammar | undefined;
  /** The resolved file path. */
  readonly path: string;
  /** e.g. `JinjaTemplate` when the model's own template is used, `ChatML`, `Llama3_1`. */
  readonly chatWrapperName: string;
  /** Releases the context and the model (the shared runtime stays loaded). */
  dispose(): Promise<void>;
}

export type OpenedEngine = { ok: true; engine: Engine } | { ok: false; error: ProviderError };

async function quietly(dispose: (() => unknown) | undefined): Promise<void> {
  try {
    await dispose?.();
  } catch {
    // Already disposed, or the native side is gone: nothing left to release.
  }
}

/** Loads the model, creates its context and chat. */
export async function openEngine(opts: EngineOptions): Promise<OpenedEngine> {
  const file = await inspectModelFile(opts.modelPath);
  if (!file.ok) return file;
  const runtime = await loadRuntime(opts.loader ?? defaultLoader, opts.gpu ?? 'auto');
  if (!runtime.ok) return runtime;
  const { mod, llama } = runtime.runtime;

  const mark = llamaLogMark();
  let model: LlamaModel;
  try {
    model = await llama.loadModel({ modelPath: file.path });
  } catch (err) {
    return { ok: false, error: modelLoadFailed(file.path, err, llamaErrorSince(mark)) };
  }

  let context: LlamaContext;
  try {
    context = await model.createContext({
      contextSize: opts.contextSize ?? { max: DEFAULT_LOCAL_CONTEXT_SIZE },
      // node-llama-cpp's default is at least 4 threads; on a 2-core machine the extra ones
      // spin against each other and generation becomes ~100x slower.
      threads: opts.threads ?? Math.max(1, llama.cpuMathCores),
      sequences: 1,
    });
  } catch (err) {
    await quietly(() => model.dispose());
    return { ok: false, error: contextFailed(opts.contextSize, err) };
  }

  let grammar: LlamaGrammar | undefined;
  if (opts.grammar !== undefined) {
    try {
      grammar = await llama.createGrammar({ grammar: opts.grammar });
    } catch (err) {
      await quietly(() => context.dispose());
      await quietly(() => model.dispose());
      return { ok: false, error: grammarFailed(err) };
    }
  }

  // chatWrapper "auto": the wrapper comes from the model's metadata (its chat template).
  const chat = new mod.LlamaChat({ contextSequence: context.getSequence(), chatWrapper: 'auto' });
  return {
    ok: true,
    engine: {
      mod,
      llama,
      model,
      context,
      chat,
      grammar,
      path: file.path,
      chatWrapperName: chat.chatWrapper.wrapperName,
      async dispose() {
        await quietly(() => chat.dispose({ disposeSequence: true }));
        await quietly(() => context.dispose());
        await quietly(() => model.dispose());
      },
    },
  };
}
