/**
 * The local provider's failures as `ProviderError`s: what went wrong with the runtime or the
 * model file, and the one thing to do about it. Kept apart from the HTTP errors in
 * `../errors.ts` because none of those causes (status codes, base URLs, keys) apply here.
 */
import type { ProviderError } from '../types.js';
import { missingPartHint } from '../../core/optionalParts.js';

/** Where the user is sent for how to get a model. */
const LOCAL_DOCS = 'docs/LOCAL.md';

/** The way back to a working agent when the local model cannot run at all. */
const FALLBACK = 'or set "provider": "openai-compatible" in config.json';

/** The error's own message, on one line and short enough for a status line. */
function errorDetail(err: unknown): string {
  const raw = err instanceof Error ? err.message : String(err);
  const line = raw.replace(/\s+/g, ' ').trim();
  return line.length > 240 ? `${line.slice(0, 237)}...` : line;
}

/** True when `import('node-llama-cpp')` failed because the package is not installed. */
function isMissingPackage(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  const text = errorDetail(err);
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    text.includes('node-llama-cpp')
  );
}

/**
 * node-llama-cpp could not be imported, or its native llama.cpp binary could not load (no
 * prebuilt binary for this system, a missing shared library, an old glibc). Either way the
 * provider cannot run at all, so the kind is `unavailable`.
 */
export function runtimeUnavailable(err: unknown): ProviderError {
  if (isMissingPackage(err)) {
    return {
      kind: 'unavailable',
      message:
        `node-llama-cpp is not installed, so the local model cannot run: ${missingPartHint('localModel')}; ` +
        FALLBACK,
    };
  }
  const system = `${process.platform}-${process.arch}`;
  return {
    kind: 'unavailable',
    message:
      `the local model runtime (node-llama-cpp) could not load its native llama.cpp binary on ${system} ` +
      `(${errorDetail(err)}): run "npm install" in the Cogito folder to restore its prebuilt binary; ` +
      'if there is none for this system, build one with "npx --no node-llama-cpp source download" ' +
      `(needs cmake and a C++ compiler), ${FALLBACK}`,
  };
}

/** `modelPath` is not set (only reachable when the provider is built by hand). */
export function modelPathMissing(): ProviderError {
  return {
    kind: 'bad_request',
    message: `no model file is set: add "modelPath": "/path/to/model.gguf" to config.json (${LOCAL_DOCS} says how to get one)`,
  };
}

/** Nothing at `modelPath`. */
export function modelFileNotFound(path: string): ProviderError {
  return {
    kind: 'not_found',
    message:
      `the model file "${path}" does not exist: set "modelPath" in config.json to a .gguf file ` +
      `(${LOCAL_DOCS} says how to get one, e.g. "npx --no node-llama-cpp pull <url>")`,
  };
}

/** `modelPath` names a folder or something else that is not a regular file. */
export function modelFileNotAFile(path: string): ProviderError {
  return {
    kind: 'bad_request',
    message: `"${path}" is a folder, not a model file: set "modelPath" to the .gguf file inside it`,
  };
}

/** The file cannot be read (permissions, I/O). */
export function modelFileUnreadable(path: string, err: unknown): ProviderError {
  return {
    kind: 'bad_request',
    message: `cannot read the model file "${path}" (${errorDetail(err)}): check its permissions`,
  };
}

/** The file does not start with the GGUF magic: a different format or a broken download. */
export function modelFileNotGguf(path: string): ProviderError {
  return {
    kind: 'bad_request',
    message:
      `"${path}" is not a GGUF model (it does not start with "GGUF"): download a .gguf file ` +
      `(safetensors, .bin and .pth models must be converted first; see ${LOCAL_DOCS})`,
  };
}

/** llama.cpp rejected the file: truncated, corrupt, or an architecture it does not know. */
export function modelLoadFailed(path: string, err: unknown, log?: string): ProviderError {
  const why = log ? `${errorDetail(err)}; llama.cpp says: ${log}` : errorDetail(err);
  return {
    kind: 'bad_request',
    message:
      `could not load the model "${path}" (${why}): the file may be incomplete or made for a ` +
      'newer llama.cpp; download it again or choose another GGUF',
  };
}

/** The context did not fit in memory (or another failure creating it). */
export function contextFailed(contextSize: number | undefined, err: unknown): ProviderError {
  const size = contextSize === undefined ? '' : ` of ${contextSize} tokens`;
  return {
    kind: 'unavailable',
    message:
      `could not create a context${size} for the local model (${errorDetail(err)}): lower ` +
      '"contextSize" in config.json, or choose a smaller model',
  };
}

/** The grammar (tests, constrained output) did not parse. */
export function grammarFailed(err: unknown): ProviderError {
  return {
    kind: 'bad_request',
    message: `the generation grammar is not valid GBNF (${errorDetail(err)}): fix the grammar`,
  };
}

/** Something failed while the model was generating. */
export function generationFailed(err: unknown): ProviderError {
  return {
    kind: 'unknown',
    message: `the local model failed while generating (${errorDetail(err)}): try again; if it keeps failing, restart Cogito`,
  };
}

/** Anything else that stopped the model from starting. */
export function engineFailed(err: unknown): ProviderError {
  return {
    kind: 'unknown',
    message: `the local model could not start (${errorDetail(err)}): check "modelPath" and the other local settings in config.json`,
  };
}
