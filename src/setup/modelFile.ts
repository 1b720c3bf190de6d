/**
 * The "connection test" for the local GGUF preset: the file must exist, be a GGUF file and
 * load in llama.cpp. The check lives in the local provider (`checkModelFile`); it is
 * imported only when this preset is tested, so the wizard never loads node-llama-cpp for
 * users of a hosted API.
 */
import path from 'node:path';
import type { ModelFileCheck } from '../providers/local/modelFile.js';
import { fail, type ConnectionVerdict } from './verdict.js';

/** Checks a GGUF file; injectable so tests need no native runtime. */
export type ModelFileChecker = (modelPath: string) => Promise<ModelFileCheck>;

const realChecker: ModelFileChecker = async (modelPath) =>
  (await import('../providers/local/modelFile.js')).checkModelFile(modelPath);

/** The wizard's verdict on a model file. Never throws. */
export async function testModelFile(
  modelPath: string,
  check: ModelFileChecker = realChecker,
): Promise<ConnectionVerdict> {
  if (!modelPath.trim()) return fail('bad_file', 'no model file was given');
  let result: ModelFileCheck;
  try {
    result = await check(modelPath);
  } catch (err) {
    return fail('bad_file', err instanceof Error ? err.message : String(err));
  }
  if (!result.ok) return fail('bad_file', result.error.message);
  const { info } = result;
  const parts = [
    info.name ?? path.basename(info.path),
    info.architecture,
    `${Math.max(1, Math.round(info.sizeBytes / 1_000_000))} MB`,
  ].filter((p): p is string => typeof p === 'string' && p !== '');
  return { ok: true, note: parts.join(' · ') };
}
