import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTEXT_WINDOW, contextWindowFor } from '../../src/config/models.js';
import { appPaths, projectRoot, resolveHome } from '../../src/config/paths.js';
import { closeMatches } from '../../src/config/suggest.js';

describe('contextWindowFor', () => {
  it.each([
    ['deepseek-chat', 128_000],
    ['deepseek-reasoner', 128_000],
    ['gpt-4o', 128_000],
    ['gpt-4o-mini-2024-07-18', 128_000],
    ['gpt-4.1-mini', 1_047_576],
    ['gpt-5', 400_000],
    ['o3', 200_000],
    ['o4-mini', 200_000],
    ['qwen-plus', 131_072],
    ['qwen-max-latest', 131_072],
    ['qwen2.5:7b', 32_768],
    ['Qwen/Qwen3-8B', 32_768],
    ['moonshot-v1-8k', 8_192],
    ['moonshot-v1-32k', 32_768],
    ['moonshot-v1-128k', 131_072],
    ['kimi-k2-0711-preview', 131_072],
    ['llama3.1:8b', 131_072],
    ['meta-llama/Llama-3.3-70B-Instruct', 131_072],
    ['llama3:8b', 8_192],
    ['mistral-small', 32_768],
    ['gemma2:9b', 8_192],
    ['some-unknown-model', DEFAULT_CONTEXT_WINDOW],
  ])('%s → %i', (model, expected) => {
    expect(contextWindowFor(model)).toBe(expected);
  });

  it('uses config.contextWindow over the table', () => {
    expect(contextWindowFor('gpt-4o', { contextWindow: 4096 })).toBe(4096);
  });
});

describe('suggestions', () => {
  it('offers only close candidates, best first', () => {
    expect(closeMatches('modle', ['model', 'modelPath', 'persona'])).toEqual(['model']);
    expect(closeMatches('approve', ['approval', 'search'])).toEqual(['approval']);
    expect(closeMatches('xyz', ['model', 'persona'])).toEqual([]);
  });
});

describe('app home', () => {
  it('defaults to the project folder, which holds Cogito’s package.json', async () => {
    const root = projectRoot();
    expect(resolveHome({ env: {} })).toEqual({ home: root, source: 'project' });
    const { readFile } = await import('node:fs/promises');
    expect(JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')).name).toBe('cogito');
  });

  it('takes --home over COGITO_HOME, resolving relative paths and ~', async () => {
    const cwd = await mkdtemp(path.join(os.tmpdir(), 'cogito-paths-'));
    try {
      await writeFile(path.join(cwd, 'x'), '');
      expect(resolveHome({ flag: 'h1', env: { COGITO_HOME: '/elsewhere' }, cwd })).toEqual({
        home: path.join(cwd, 'h1'),
        source: 'flag',
      });
      expect(resolveHome({ env: { COGITO_HOME: 'h2' }, cwd })).toEqual({
        home: path.join(cwd, 'h2'),
        source: 'env',
      });
      expect(resolveHome({ flag: '~/cog', env: {}, cwd }).home).toBe(
        path.join(os.homedir(), 'cog'),
      );
      expect(appPaths('/h')).toEqual({
        home: '/h',
        config: '/h/config.json',
        data: '/h/data',
        documentCache: '/h/data/cache/documents',
        personas: '/h/personas',
        persona: '/h/persona.md',
        models: '/h/models',
        exports: '/h/data/exports',
        logs: '/h/data/logs',
      });
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
