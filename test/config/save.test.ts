import { chmod, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { saveConfig, updateConfigFile } from '../../src/config/save.js';
import { defaultConfig } from '../../src/config/schema.js';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'cogito-save-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});
const file = () => path.join(home, 'config.json');

describe('saveConfig', () => {
  it('writes mode 0600, only non-default values, and loads back the same config', async () => {
    const config = {
      ...defaultConfig(),
      apiKey: 'sk-secret',
      model: 'gpt-4o',
      approval: { ...defaultConfig().approval, write: 'ask' as const },
    };
    const result = await saveConfig(home, config);
    expect(result).toEqual({ ok: true, file: file() });
    expect((await stat(file())).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file(), 'utf8'))).toEqual({
      apiKey: 'sk-secret',
      model: 'gpt-4o',
      approval: { write: 'ask' },
    });
    const loaded = loadConfig({ home, env: {}, cwd: home });
    expect(loaded.ok && loaded.config).toEqual({ ...config, workspace: home });
  });

  it('tightens an existing world-readable file to 0600 and leaves no temp files', async () => {
    await writeFile(file(), '{}');
    await chmod(file(), 0o644);
    await saveConfig(home, { model: 'qwen-plus' });
    expect((await stat(file())).mode & 0o777).toBe(0o600);
    expect(await readdir(home)).toEqual(['config.json']);
  });

  it('creates the home folder when needed', async () => {
    const nested = path.join(home, 'a', 'b');
    expect((await saveConfig(nested, { persona: 'chef' })).ok).toBe(true);
    expect(JSON.parse(await readFile(path.join(nested, 'config.json'), 'utf8'))).toEqual({
      persona: 'chef',
    });
  });

  it('refuses to write an invalid config and leaves the old file alone', async () => {
    await writeFile(file(), '{"model":"keep"}');
    const result = await saveConfig(home, { thinkIntervalMs: -3 } as never);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors[0]).toMatchObject({ field: 'thinkIntervalMs' });
    expect(await readFile(file(), 'utf8')).toBe('{"model":"keep"}');
  });
});

describe('updateConfigFile', () => {
  it('changes only the given settings and keeps what the user wrote', async () => {
    await writeFile(
      file(),
      JSON.stringify({ model: 'deepseek-reasoner', approval: { destructive: 'deny' } }),
    );
    const result = await updateConfigFile(home, { apiKey: 'sk-new', approval: { write: 'ask' } });
    expect(result.ok).toBe(true);
    expect(JSON.parse(await readFile(file(), 'utf8'))).toEqual({
      apiKey: 'sk-new',
      model: 'deepseek-reasoner',
      approval: { write: 'ask', destructive: 'deny' },
    });
    expect((await stat(file())).mode & 0o777).toBe(0o600);
  });

  it('will not overwrite a file it cannot understand', async () => {
    await writeFile(file(), '{ "model": "x", }');
    const result = await updateConfigFile(home, { model: 'y' });
    expect(result.ok).toBe(false);
    expect(await readFile(file(), 'utf8')).toBe('{ "model": "x", }');
  });

  it('creates the file on first run', async () => {
    expect((await updateConfigFile(home, { language: 'zh' })).ok).toBe(true);
    expect(JSON.parse(await readFile(file(), 'utf8'))).toEqual({ language: 'zh' });
  });
});
