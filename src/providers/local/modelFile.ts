/**
 * Checks a GGUF model file: cheaply before every load (exists, is a file, has the magic),
 * and fully for the setup wizard's connection test (`checkModelFile` loads it once).
 */
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ProviderError } from '../types.js';
import {
  defaultLoader,
  llamaErrorSince,
  llamaLogMark,
  loadRuntime,
  type GpuMode,
  type LlamaLoader,
} from './runtime.js';
import {
  modelFileNotAFile,
  modelFileNotFound,
  modelFileNotGguf,
  modelFileUnreadable,
  modelLoadFailed,
  modelPathMissing,
} from './errors.js';

/** Every GGUF file starts with these four bytes. */
const GGUF_MAGIC = 'GGUF';

/** What the wizard can show about a model that loaded. */
export interface ModelFileInfo {
  /** Absolute path of the file. */
  path: string;
  sizeBytes: number;
  /** `general.architecture`, e.g. `llama`, `qwen2`. */
  architecture?: string;
  /** `general.name`, when the file has one. */
  name?: string;
  /** The context length the model was trained with. */
  trainContextSize?: number;
}

export type ModelFileCheck =
  { ok: true; info: ModelFileInfo } | { ok: false; error: ProviderError };

/** `~/models/x.gguf` → the home folder's models; relative paths resolve from the current folder. */
export function resolveModelPath(modelPath: string): string {
  const home = process.env['HOME'] ?? process.env['USERPROFILE'];
  const expanded =
    home && (modelPath === '~' || modelPath.startsWith('~/') || modelPath.startsWith('~\\'))
      ? path.join(home, modelPath.slice(1))
      : modelPath;
  return path.resolve(expanded);
}

/**
 * The checks that need no native code: the path is set, exists, is a regular file and starts
 * with the GGUF magic. Returns the problem, or the file's size when it looks right.
 */
export async function inspectModelFile(
  modelPath: string,
): Promise<{ ok: true; path: string; sizeBytes: number } | { ok: false; error: ProviderError }> {
  if (!modelPath.trim()) return { ok: false, error: modelPathMissing() };
  const file = resolveModelPath(modelPath);
  let size: number;
  try {
    const s = await stat(file);
    if (!s.isFile()) return { ok: false, error: modelFileNotAFile(file) };
    size = s.size;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      return { ok: false, error: modelFileNotFound(file) };
    return { ok: false, error: modelFileUnreadable(file, err) };
  }
  try {
    const handle = await open(file, 'r');
    try {
      const magic = Buffer.alloc(4);
      const { bytesRead } = await handle.read(magic, 0, 4, 0);
      if (bytesRead < 4 || magic.toString('latin1') !== GGUF_MAGIC) {
        return { ok: false, error: modelFileNotGguf(file) };
      }
    } finally {
      await handle.close();
    }
  } catch (err) {
    return { ok: false, error: modelFileUnreadable(file, err) };
  }
  return { ok: true, path: file, sizeBytes: size };
}

export interface CheckModelFileOptions {
  gpu?: GpuMode;
  /** Injectable node-llama-cpp import (tests simulate a runtime that cannot load). */
  loader?: LlamaLoader;
}

/**
 * The setup wizard's connection test for the "local GGUF file" preset: the file checks of
 * `inspectModelFile`, then one real load through llama.cpp (weights memory-mapped, no
 * context), released again at once. Never throws; a failure names the problem and the fix.
 */
export async function checkModelFile(
  modelPath: string,
  opts: CheckModelFileOptions = {},
): Promise<ModelFileCheck> {
  const inspected = await inspectModelFile(modelPath);
  if (!inspected.ok) return inspected;
  const runtime = await loadRuntime(opts.loader ?? defaultLoader, opts.gpu ?? 'auto');
  if (!runtime.ok) return runtime;
  const mark = llamaLogMark();
  try {
    const model = await runtime.runtime.llama.loadModel({ modelPath: inspected.path });
    try {
      const meta = model.fileInfo.metadata as {
        general?: { architecture?: unknown; name?: unknown };
      };
      const architecture = meta.general?.architecture;
      const name = meta.general?.name;
      const train = model.trainContextSize;
      return {
        ok: true,
        info: {
          path: inspected.path,
          sizeBytes: inspected.sizeBytes,
          ...(typeof architecture === 'string' ? { architecture } : {}),
          ...(typeof name === 'string' ? { name } : {}),
          ...(Number.isFinite(train) && train > 0 ? { trainContextSize: train } : {}),
        },
      };
    } finally {
      await model.dispose();
    }
  } catch (err) {
    return { ok: false, error: modelLoadFailed(inspected.path, err, llamaErrorSince(mark)) };
  }
}
