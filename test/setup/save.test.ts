import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { initialAnswers, toConfigChange } from '../../src/setup/answers.js';
import { needsSetup } from '../../src/setup/firstRun.js';
import { testModelFile } from '../../src/setup/modelFile.js';
import { prepareSetup } from '../../src/setup/prepare.js';
import { saveSetup } from '../../src/setup/save.js';
import type { Answers } from '../../src/setup/wizard.js';

let tmp: string;
let home: string;
let ws: string;
beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'cogito-setup-'));
  home = path.join(tmp, 'home');
  ws = path.join(tmp, 'ws');
  await fs.mkdir(home);
  await fs.mkdir(ws);
});
afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

const answers = (over: Partial<Answers> = {}): Answers => ({
  language: 'zh',
  presetId: 'openai',
  baseURL: 'https://api.openai.com/v1',
  apiKey: 'sk-openai-secret',
  model: 'gpt-4o',
  modelPath: '',
  persona: 'detective',
  ...over,
});
const file = (): string => path.join(home, 'config.json');
const readJson = async (): Promise<Record<string, unknown>> =>
  JSON.parse(await fs.readFile(file(), 'utf8')) as Record<string, unknown>;

describe('saveSetup', () => {
  test('writes the answers to config.json, mode 0600, and they load back', async () => {
    const r = await saveSetup(home, answers());
    expect(r).toEqual({ ok: true, file: file() });
    expect((await fs.stat(file())).mode & 0o777).toBe(0o600);
    // No workspace is stored: Cogito works in the folder it is started in.
    expect(await readJson()).not.toHaveProperty('workspace');
    const loaded = loadConfig({ home, env: {}, cwd: ws });
    expect(loaded.ok && loaded.exists).toBe(true);
    expect(loaded.ok && loaded.config).toMatchObject({
      provider: 'openai-compatible',
      baseURL: 'https://api.openai.com/v1',
      apiKey: 'sk-openai-secret',
      model: 'gpt-4o',
      workspace: ws,
      persona: 'detective',
      language: 'zh',
    });
  });

  test('takes out a workspace an earlier version stored, keeping the other settings', async () => {
    await fs.writeFile(file(), JSON.stringify({ workspace: '/pinned', thinkIntervalMs: 9000 }));
    expect((await saveSetup(home, answers())).ok).toBe(true);
    const saved = await readJson();
    expect(saved).not.toHaveProperty('workspace');
    expect(saved).toMatchObject({ thinkIntervalMs: 9000, model: 'gpt-4o' });
    await fs.writeFile(file(), JSON.stringify({ workspace: '/pinned' }));
    expect((await saveSetup(home, answers({ presetId: 'gguf', modelPath: '/m.gguf' }))).ok).toBe(
      true,
    );
    expect(await readJson()).not.toHaveProperty('workspace');
  });

  test('keeps the other settings in the file and drops a key the new server does not get', async () => {
    await fs.writeFile(file(), JSON.stringify({ thinkIntervalMs: 9000, apiKey: 'sk-old-key' }));
    const r = await saveSetup(
      home,
      answers({
        presetId: 'ollama',
        baseURL: 'http://127.0.0.1:11434/v1',
        apiKey: '',
        model: 'qwen2.5',
      }),
    );
    expect(r.ok).toBe(true);
    const saved = await readJson();
    expect(saved).toMatchObject({ thinkIntervalMs: 9000, baseURL: 'http://127.0.0.1:11434/v1' });
    expect(saved).not.toHaveProperty('apiKey');
  });

  test("the preset's way of calling tools is written; another service keeps the file's", () => {
    expect(toConfigChange(answers()).set).toMatchObject({ toolCalls: 'native' });
    const ollama = { presetId: 'ollama' as const, baseURL: 'http://127.0.0.1:11434/v1' };
    expect(toConfigChange(answers(ollama)).set).toMatchObject({ toolCalls: 'text' });
    const custom = { presetId: 'custom' as const, baseURL: 'http://10.0.0.2/v1' };
    expect(toConfigChange(answers(custom)).set).not.toHaveProperty('toolCalls');
  });

  test('a local GGUF file sets the local provider and its path', async () => {
    const change = toConfigChange(answers({ presetId: 'gguf', modelPath: '/m/x.gguf' }));
    expect(change.set).toMatchObject({ provider: 'local', modelPath: '/m/x.gguf' });
    expect(change.set).not.toHaveProperty('apiKey');
    expect(change.set).not.toHaveProperty('baseURL');
  });

  test('an existing file that is not valid JSON is left alone and reported', async () => {
    await fs.writeFile(file(), '{ "model": "x", }');
    const r = await saveSetup(home, answers());
    expect(r.ok).toBe(false);
    expect(!r.ok && r.errors[0]?.problem).toContain('not valid JSON');
    expect(await fs.readFile(file(), 'utf8')).toBe('{ "model": "x", }');
  });
});

describe('initialAnswers', () => {
  test('first run: only the language (no workspace: the folder is where cogito starts)', () => {
    expect(initialAnswers({ language: 'en', file: { workspace: '/pinned' } })).toEqual({
      language: 'en',
      presetId: undefined,
      baseURL: '',
      apiKey: '',
      model: '',
      modelPath: '',
      persona: 'assistant',
    });
  });

  test('--setup starts from what the file holds', () => {
    const a = initialAnswers({
      language: 'zh',
      file: { baseURL: 'https://api.moonshot.cn/v1', apiKey: 'k', model: 'kimi', persona: 'chef' },
    });
    expect(a).toMatchObject({ presetId: 'moonshot', apiKey: 'k', model: 'kimi', persona: 'chef' });
    expect(initialAnswers({ language: 'en', file: { baseURL: 'http://h/v1' } })).toMatchObject({
      presetId: 'custom',
      baseURL: 'http://h/v1',
    });
    expect(
      initialAnswers({
        language: 'en',
        file: { provider: 'local', modelPath: '/a.gguf' },
      }),
    ).toMatchObject({ presetId: 'gguf', modelPath: '/a.gguf', baseURL: '' });
  });
});

describe('when the wizard runs', () => {
  const none = { exists: false, setupFlag: false, env: {}, flags: {} };
  test.each([
    ['first run, nothing configured', none, true],
    ['config.json exists', { ...none, exists: true }, false],
    ['--setup with a config', { ...none, exists: true, setupFlag: true }, true],
    ['COGITO_API_KEY set', { ...none, env: { COGITO_API_KEY: 'k' } }, false],
    ['COGITO_BASE_URL set', { ...none, env: { COGITO_BASE_URL: 'http://h/v1' } }, false],
    ['an empty variable is unset', { ...none, env: { OPENAI_API_KEY: ' ' } }, true],
    ['--model given', { ...none, flags: { model: 'm' } }, false],
  ])('%s', (_name, facts, expected) => {
    expect(needsSetup(facts)).toBe(expected);
  });

  test('prepareSetup reads the home and the personas, and writes nothing', async () => {
    const env = { COGITO_HOME: home, LANG: 'zh_CN.UTF-8' };
    const plan = prepareSetup({ flags: {}, env, cwd: ws });
    expect(plan.run).toBe(true);
    if (!plan.run) return;
    expect(plan).toMatchObject({ home, file: file() });
    expect(plan.answers).toMatchObject({ language: 'zh' });
    expect(plan.answers).not.toHaveProperty('workspace');
    expect(plan.personas.map((p) => p.id)).toContain('assistant');
    expect(await fs.readdir(home)).toEqual([]);
    await fs.writeFile(file(), '{}');
    expect(prepareSetup({ flags: {}, env, cwd: ws }).run).toBe(false);
    expect(prepareSetup({ flags: { setup: true }, env, cwd: ws }).run).toBe(true);
  });

  test('a broken config is left for the app start to report', async () => {
    await fs.writeFile(file(), '{ nope');
    expect(prepareSetup({ flags: { setup: true }, env: { COGITO_HOME: home }, cwd: ws })).toEqual({
      run: false,
    });
  });
});

describe('testModelFile', () => {
  test('a file that loads passes with its name, architecture and size', async () => {
    const v = await testModelFile('/m/tiny.gguf', async (p) => ({
      ok: true,
      info: { path: p, sizeBytes: 4_200_000, architecture: 'llama', name: 'Tiny' },
    }));
    expect(v).toEqual({ ok: true, note: 'Tiny · llama · 4 MB' });
  });

  test("a missing or non-GGUF file is bad_file, with the checker's reason", async () => {
    const notGguf = path.join(tmp, 'notes.txt');
    await fs.writeFile(notGguf, 'hello, not a model');
    const v = await testModelFile(notGguf);
    expect(v).toMatchObject({ ok: false, kind: 'bad_file' });
    expect(await testModelFile(path.join(tmp, 'missing.gguf'))).toMatchObject({
      ok: false,
      kind: 'bad_file',
    });
    expect(await testModelFile('')).toMatchObject({ ok: false, kind: 'bad_file' });
  });
});
