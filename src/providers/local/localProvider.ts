/**
 * The `local` provider: a GGUF model running in-process through node-llama-cpp, so nothing
 * leaves the machine. Same contract and events as the OpenAI-compatible provider.
 *
 * - node-llama-cpp is imported on first use (`runtime.ts`); when it or its native binary
 *   cannot load, every stream ends with `done` / `unavailable` naming the fix, and the rest
 *   of Cogito is unaffected.
 * - The model is loaded once, on the first request, and kept; its KV cache is reused across
 *   turns, so only the new part of the prompt is evaluated.
 * - An abort ends the stream at once: the stream does not wait for llama.cpp, which stops at
 *   its next token; the next request waits for that before using the model again.
 */
import path from 'node:path';
import type { Provider, ProviderEvent, StreamRequest } from '../types.js';
import { createChannel } from './channel.js';
import { openEngine, type Engine, type EngineOptions, type OpenedEngine } from './engine.js';
import { generate, type GenerateOutcome } from './generate.js';
import { engineFailed } from './errors.js';
import { toLlamaHistory } from './history.js';
import type { GpuMode, LlamaLoader } from './runtime.js';

/** Reply cap when the request sets none: stops a model that never emits end-of-turn. */
const DEFAULT_LOCAL_MAX_TOKENS = 4096;
/** Mild sampling: node-llama-cpp's default is greedy, which loops on small models. */
const DEFAULT_LOCAL_TEMPERATURE = 0.7;

export interface LocalProviderOptions {
  /** Path to the .gguf file (`~` is expanded; relative paths resolve from the cwd). */
  modelPath: string;
  /** Tokens the context holds; default 8192 (capped by what fits in memory). */
  contextSize?: number;
  /** CPU threads for generation; default the cores useful for math. */
  threads?: number;
  /** `auto` (default): the best installed GPU build, else CPU. `off`: CPU only. */
  gpu?: GpuMode;
  /** A GBNF grammar every reply must match; for tests and constrained output. */
  grammar?: string;
  /** Reply cap when a request sets none; default `DEFAULT_LOCAL_MAX_TOKENS`. */
  maxTokens?: number;
  temperature?: number;
  /** Shown as the model's name; default the file name. */
  model?: string;
  /** Injectable node-llama-cpp import (tests simulate a binary that cannot load). */
  loader?: LlamaLoader;
}

/** What the loaded model turned out to be, for status lines and tests. */
interface LocalModelInfo {
  path: string;
  /** The chat wrapper in use: `JinjaTemplate` means the model's own template. */
  chatWrapper: string;
  contextSize: number;
  gpu: string | false;
}

export interface LocalProvider extends Provider {
  readonly id: 'local';
  /** Set once the model has loaded. */
  info(): LocalModelInfo | undefined;
  /** Loads the model now instead of on the first request; reports a failure as the error. */
  warmUp(): Promise<OpenedEngine>;
  /** Stops any generation and releases the model. The provider can load it again later. */
  dispose(): Promise<void>;
}

const ABORTED = Symbol('aborted');

/** Resolves with `promise`'s value, or with ABORTED as soon as `signal` fires. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

function engineOptionsOf(opts: LocalProviderOptions): EngineOptions {
  return {
    modelPath: opts.modelPath,
    ...(opts.contextSize === undefined ? {} : { contextSize: opts.contextSize }),
    ...(opts.threads === undefined ? {} : { threads: opts.threads }),
    ...(opts.gpu === undefined ? {} : { gpu: opts.gpu }),
    ...(opts.grammar === undefined ? {} : { grammar: opts.grammar }),
    ...(opts.loader === undefined ? {} : { loader: opts.loader }),
  };
}

/** The model, opened once on demand; a failed open is forgotten so the next one retries. */
interface EngineSlot {
  open(): Promise<OpenedEngine>;
  /** The loaded engine, once an open has succeeded. */
  readonly engine: Engine | undefined;
  /** Forgets the engine and returns the open in progress or done, for disposal. */
  clear(): Promise<OpenedEngine> | undefined;
}

function createEngineSlot(options: EngineOptions): EngineSlot {
  let opening: Promise<OpenedEngine> | undefined;
  let engine: Engine | undefined;
  return {
    open() {
      if (!opening) {
        const attempt = openEngine(options)
          .catch((err: unknown): OpenedEngine => ({ ok: false, error: engineFailed(err) }))
          .then((opened) => {
            if (opened.ok) engine = opened.engine;
            // A failure is not kept: the user may fix the file or the install and try again.
            else if (opening === attempt) opening = undefined;
            return opened;
          });
        opening = attempt;
      }
      return opening;
    },
    get engine() {
      return engine;
    },
    clear() {
      const pending = opening;
      opening = undefined;
      engine = undefined;
      return pending;
    },
  };
}

/**
 * One generation on a loaded engine, as provider events ending in `done`. The caller's
 * abort closes the stream at once; `onRun` receives the promise that settles when llama.cpp
 * has really stopped, which the next request waits for.
 */
async function* generateEvents(
  engine: Engine,
  request: StreamRequest,
  settings: { maxTokens: number; temperature: number },
  live: Set<AbortController>,
  onRun: (run: Promise<void>) => void,
): AsyncGenerator<ProviderEvent, void, undefined> {
  const controller = new AbortController();
  live.add(controller);
  const channel = createChannel<ProviderEvent>();
  const onAbort = (): void => {
    controller.abort();
    channel.close(true);
  };
  request.signal.addEventListener('abort', onAbort, { once: true });

  let outcome: GenerateOutcome | undefined;
  const history = toLlamaHistory(request.messages);
  onRun(
    generate(engine, history, settings, controller.signal, (event) => channel.push(event)).then(
      (result) => {
        outcome = result;
        channel.close();
        live.delete(controller);
      },
    ),
  );

  try {
    for await (const event of channel) yield event;
  } finally {
    request.signal.removeEventListener('abort', onAbort);
    // Also covers a consumer that stops reading early: generation does not outlive it.
    controller.abort();
  }

  if (request.signal.aborted || !outcome) {
    yield { type: 'done', reason: 'aborted' };
  } else if (!outcome.ok) {
    yield { type: 'done', reason: 'error', error: outcome.error };
  } else {
    yield { type: 'usage', usage: outcome.usage };
    yield { type: 'done', reason: outcome.reason };
  }
}

/** Creates the provider; nothing is imported or loaded until the first request. */
export function createLocalProvider(opts: LocalProviderOptions): LocalProvider {
  const slot = createEngineSlot(engineOptionsOf(opts));
  const settings = {
    maxTokens: opts.maxTokens ?? DEFAULT_LOCAL_MAX_TOKENS,
    temperature: opts.temperature ?? DEFAULT_LOCAL_TEMPERATURE,
  };
  // The generation in flight (or the last one); the next one starts after it settles.
  let lastRun: Promise<unknown> = Promise.resolve();
  const live = new Set<AbortController>();

  async function* stream(request: StreamRequest): AsyncGenerator<ProviderEvent, void, undefined> {
    if (request.signal.aborted) {
      yield { type: 'done', reason: 'aborted' };
      return;
    }
    // Loading can take seconds for a big model; an interrupt does not wait for it (the load
    // goes on and is kept for the next request).
    const opened = await unlessAborted(slot.open(), request.signal);
    if (opened === ABORTED) {
      yield { type: 'done', reason: 'aborted' };
      return;
    }
    if (!opened.ok) {
      yield { type: 'done', reason: 'error', error: opened.error };
      return;
    }
    // Claim the model now, synchronously, so concurrent requests queue in order.
    const prior = lastRun;
    let release!: () => void;
    lastRun = new Promise<void>((resolve) => (release = resolve));
    let run: Promise<void> | undefined;
    try {
      if ((await unlessAborted(prior, request.signal)) === ABORTED) {
        yield { type: 'done', reason: 'aborted' };
        return;
      }
      const maxTokens = request.maxTokens ?? settings.maxTokens;
      yield* generateEvents(opened.engine, request, { ...settings, maxTokens }, live, (r) => {
        run = r;
      });
    } finally {
      // The next request may use the model once this generation (or the one before it, if
      // this request never started) has really stopped, not merely when this stream ended.
      void (run ?? prior).then(release, release);
    }
  }

  return {
    id: 'local',
    model: opts.model ?? path.basename(opts.modelPath),
    stream,
    warmUp: () => slot.open(),
    info() {
      const engine = slot.engine;
      if (!engine) return undefined;
      return {
        path: engine.path,
        chatWrapper: engine.chatWrapperName,
        contextSize: engine.context.contextSize,
        gpu: engine.llama.gpu,
      };
    },
    async dispose() {
      for (const c of live) c.abort();
      const pending = slot.clear();
      await lastRun;
      const opened = await pending;
      if (opened?.ok) await opened.engine.dispose();
    },
  };
}

/** One per local model file configured: never grows with the session. */
const shared = new Map<string, LocalProvider>();

/**
 * The provider for these settings, created once per process. The app builds providers by
 * config (at start, and again on `/model`); a second provider for the same file would load
 * the weights and allocate a context a second time.
 */
export function sharedLocalProvider(
  opts: Pick<LocalProviderOptions, 'modelPath' | 'contextSize' | 'threads' | 'gpu'>,
): LocalProvider {
  const key = JSON.stringify([opts.modelPath, opts.contextSize, opts.threads, opts.gpu]);
  let provider = shared.get(key);
  if (!provider) {
    provider = createLocalProvider(opts);
    shared.set(key, provider);
  }
  return provider;
}
