/**
 * Loads node-llama-cpp and its native llama.cpp binary, lazily.
 *
 * Nothing else in Cogito imports node-llama-cpp: it is an optional dependency with a native
 * binary that may be missing or unloadable on some systems, and importing it costs ~0.5 s.
 * The import happens here, on first use of a local model, and every failure becomes a
 * `ProviderError` that names the fix instead of an exception.
 */
import type * as NodeLlamaCpp from 'node-llama-cpp';
import type { Llama } from 'node-llama-cpp';
import type { ProviderError } from '../types.js';
import { runtimeUnavailable } from './errors.js';

/** The parts of node-llama-cpp the provider uses (the real module satisfies it). */
export type LlamaModule = Pick<typeof NodeLlamaCpp, 'getLlama' | 'LlamaChat' | 'LlamaLogLevel'>;

/** Imports node-llama-cpp; injectable so tests can simulate a binary that cannot load. */
export type LlamaLoader = () => Promise<LlamaModule>;

/** `auto`: the best GPU build installed (Metal, CUDA, Vulkan), else CPU. `off`: CPU only. */
export type GpuMode = 'auto' | 'off';

/** A loaded runtime: the module and its Llama instance (one native backend per process). */
interface Runtime {
  mod: LlamaModule;
  llama: Llama;
}

/** The real import, kept in a function so nothing loads until a local model is used. */
export const defaultLoader: LlamaLoader = () => import('node-llama-cpp');

const MAX_LOG_LINES = 20;
let logCount = 0;
const recentLog: { seq: number; line: string }[] = [];

/**
 * llama.cpp's own warnings and errors are kept here instead of being printed: the TUI owns
 * the terminal, and a stray write would tear the screen. A failed load quotes the error
 * logged during it, which usually says what was wrong with the file.
 */
export function llamaLogMark(): number {
  return logCount;
}

/** The last error llama.cpp logged after `mark` (from `llamaLogMark`), if any. */
export function llamaErrorSince(mark: number): string | undefined {
  for (let i = recentLog.length - 1; i >= 0; i -= 1) {
    const entry = recentLog[i];
    if (!entry || entry.seq <= mark) break;
    if (/error|failed|invalid/i.test(entry.line)) return entry.line;
  }
  return undefined;
}

function remember(level: string, message: string): void {
  const line = message.replace(/\s+/g, ' ').trim();
  if (!line) return;
  logCount += 1;
  recentLog.push({ seq: logCount, line: `${level}: ${line}` });
  if (recentLog.length > MAX_LOG_LINES) recentLog.shift();
}

// Loading the native backend takes about half a second and it is process-wide anyway, so one
// Llama instance per (loader, GPU mode) is shared by every provider and model check.
const cache = new WeakMap<LlamaLoader, Map<GpuMode, Promise<Runtime>>>();

async function load(loader: LlamaLoader, gpu: GpuMode): Promise<Runtime> {
  const mod = await loader();
  const llama = await mod.getLlama({
    gpu: gpu === 'off' ? false : 'auto',
    // Never compile llama.cpp from source at run time: that needs cmake, a compiler and the
    // network, and takes minutes. The prebuilt binaries come with `npm install`.
    build: 'never',
    logLevel: mod.LlamaLogLevel.warn,
    logger: (level, message) => remember(String(level), message),
  });
  return { mod, llama };
}

/**
 * The runtime for `gpu`, loaded once and shared. A failure is not cached, so fixing the
 * install (or the loader in a test) and trying again works without a restart.
 */
export async function loadRuntime(
  loader: LlamaLoader = defaultLoader,
  gpu: GpuMode = 'auto',
): Promise<{ ok: true; runtime: Runtime } | { ok: false; error: ProviderError }> {
  let byGpu = cache.get(loader);
  if (!byGpu) {
    byGpu = new Map();
    cache.set(loader, byGpu);
  }
  let pending = byGpu.get(gpu);
  if (!pending) {
    pending = load(loader, gpu);
    byGpu.set(gpu, pending);
  }
  try {
    return { ok: true, runtime: await pending };
  } catch (err) {
    if (byGpu.get(gpu) === pending) byGpu.delete(gpu);
    return { ok: false, error: runtimeUnavailable(err) };
  }
}
