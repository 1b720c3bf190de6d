/**
 * How the app reaches the local provider: `createProvider` for `provider: "local"`, and
 * node-llama-cpp staying out of every module's static imports (so Cogito starts, and works
 * with remote models, where the native binary cannot load).
 */
import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProvider } from '../../src/providers/fromConfig.js';
import type { LoadedConfig } from '../../src/config/load.js';
import { defaultConfig } from '../../src/config/schema.js';
import { collectEvents } from '../helpers/collectEvents.js';

function localConfig(extra: Partial<LoadedConfig>): LoadedConfig {
  return { ...defaultConfig(), workspace: os.tmpdir(), provider: 'local', ...extra };
}

describe('createProvider with provider "local"', () => {
  it('builds the local provider, named after the model file, once per settings', () => {
    const config = localConfig({ modelPath: '/models/qwen2.5-3b-instruct-q4_k_m.gguf' });
    const provider = createProvider(config);
    expect(provider.id).toBe('local');
    expect(provider.model).toBe('qwen2.5-3b-instruct-q4_k_m.gguf');
    // /model rebuilds the provider: the same settings must not load the weights twice.
    expect(createProvider(config, 'other')).toBe(provider);
    expect(createProvider({ ...config, contextSize: 4096 })).not.toBe(provider);
  });

  it('reports a missing model file through the stream, without loading the runtime', async () => {
    const missing = path.join(os.tmpdir(), 'cogito-no-such-model.gguf');
    const provider = createProvider(localConfig({ modelPath: missing }));
    const got = await collectEvents(
      provider.stream({
        messages: [{ role: 'user', content: 'hi' }],
        signal: new AbortController().signal,
      }),
    );
    expect(got.done.reason).toBe('error');
    expect(got.done.error?.kind).toBe('not_found');
    expect(got.done.error?.message).toContain(missing);
  });
});

describe('node-llama-cpp is loaded lazily', () => {
  it('is imported only for types, apart from the one dynamic import in runtime.ts', async () => {
    const root = path.resolve(import.meta.dirname, '../../src');
    const files = (await readdir(root, { recursive: true }))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => path.join(root, f));
    const offenders: string[] = [];
    let dynamic = 0;
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      for (const line of text.split('\n')) {
        if (/^\s*(\*|\/\/|\/\*)/.test(line)) continue; // comments may mention it
        if (/^\s*import\s+(?!type\b)[^;]*from\s+'node-llama-cpp'/.test(line)) offenders.push(file);
        if (line.includes("import('node-llama-cpp')")) dynamic += 1;
      }
    }
    expect(offenders).toEqual([]);
    expect(dynamic).toBe(1);
  });
});
