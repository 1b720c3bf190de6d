import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatConfigIssues } from '../../src/config/format.js';
import type { ConfigIssue } from '../../src/config/issues.js';
import { loadConfig } from '../../src/config/load.js';
import { defaultConfig } from '../../src/config/schema.js';

let home: string;

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'cogito-config-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const file = () => path.join(home, 'config.json');
const writeConfig = (value: unknown) =>
  writeFile(file(), typeof value === 'string' ? value : JSON.stringify(value, null, 2));
/** Loads with an empty environment so the machine's own variables cannot leak in. */
const load = (extra: Parameters<typeof loadConfig>[0] = {}) =>
  loadConfig({ home, env: {}, cwd: home, ...extra });

function errorsOf(result: ReturnType<typeof loadConfig>): ConfigIssue[] {
  if (result.ok) throw new Error('expected the config to be rejected');
  return result.errors;
}

describe('loadConfig: defaults and missing file', () => {
  it('uses every default when config.json does not exist, without creating it', async () => {
    const result = load();
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.exists).toBe(false);
    expect(result.config).toEqual({ ...defaultConfig(), workspace: home });
    expect(result.config.baseURL).toBe('https://api.deepseek.com/v1');
    expect(result.config.approval).toEqual({
      read: 'auto',
      write: 'auto',
      destructive: 'ask',
      network: 'auto',
      process: 'ask',
    });
    expect(result.config.search.maxResults).toBe(8);
    expect(result.config.fetch).toEqual({
      timeoutMs: 15_000,
      maxBytes: 2 * 1024 * 1024,
      allowPrivateNetwork: false,
      allowHosts: [],
    });
    expect(result.sources.fields.model).toEqual({ from: 'default' });
    await expect(stat(file())).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reads an empty file as {} and null values as "use the default"', async () => {
    await writeConfig('   \n');
    const empty = load();
    expect(empty.ok && empty.exists).toBe(true);
    await writeConfig({ thinkIntervalMs: null, approval: { write: null, read: 'ask' } });
    const nulls = load();
    expect(nulls.ok).toBe(true);
    if (!nulls.ok) return;
    expect(nulls.config.thinkIntervalMs).toBe(3000);
    expect(nulls.config.approval).toMatchObject({ write: 'auto', read: 'ask' });
  });

  it('keeps nested defaults when only part of an object is given', async () => {
    await writeConfig({
      approval: { destructive: 'deny' },
      search: { provider: 'searxng', searxngUrl: 'http://127.0.0.1:8888' },
    });
    const result = load();
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.approval.destructive).toBe('deny');
    expect(result.config.approval.process).toBe('ask');
    expect(result.config.search).toMatchObject({ provider: 'searxng', maxResults: 8 });
    expect(result.sources.fields.approval).toEqual({ from: 'file' });
  });
});

describe('loadConfig: the file is never touched', () => {
  for (const [label, content] of [
    ['valid', JSON.stringify({ model: 'gpt-4o', apiKey: 'sk-test-123456' })],
    ['invalid value', JSON.stringify({ thinkIntervalMs: -5 })],
    ['broken JSON', '{ "model": "x", }'],
  ] as const) {
    it(`leaves a ${label} file byte-for-byte and mtime unchanged`, async () => {
      await writeConfig(content);
      const past = new Date('2020-01-02T03:04:05Z');
      await utimes(file(), past, past);
      const before = await stat(file());
      load({ env: { COGITO_MODEL: 'other' }, flags: { model: 'flagged' } });
      const after = await stat(file());
      expect(after.mtimeMs).toBe(before.mtimeMs);
      expect(after.size).toBe(before.size);
      expect(after.mode).toBe(before.mode);
      expect(await readFile(file(), 'utf8')).toBe(content);
    });
  }
});

describe('loadConfig: bad configs name the field and the fix', () => {
  interface Case {
    name: string;
    config: unknown;
    field: string;
    problem: RegExp;
    fix: RegExp;
  }
  const cases: Case[] = [
    {
      name: 'network for sandboxed commands',
      config: { run: { network: true } },
      field: 'run.network',
      problem: /would not pass the egress check the web tools use/,
      fix: /Remove "network" from "run"/,
    },
    {
      name: 'a watcher cap of 0',
      config: { watch: { maxEntries: 0 } },
      field: 'watch.maxEntries',
      problem: /whole number ≥ 1, got the number 0/,
      fix: /20000/,
    },
    {
      name: 'a negative resumeAfterWaitMs',
      config: { watch: { resumeAfterWaitMs: -1 } },
      field: 'watch.resumeAfterWaitMs',
      problem: /milliseconds ≥ 0 \(0 = a question waits for the user alone\), got the number -1/,
      fix: /1800000/,
    },
    {
      name: 'resumeAfterWaitMs as text',
      config: { watch: { resumeAfterWaitMs: '30m' } },
      field: 'watch.resumeAfterWaitMs',
      problem: /got the text "30m"/,
      fix: /./,
    },
    {
      name: 'watch.ignore as one string',
      config: { watch: { ignore: 'logs/' } },
      field: 'watch.ignore',
      problem: /list/,
      fix: /./,
    },
    {
      name: 'number as text',
      config: { thinkIntervalMs: '3000' },
      field: 'thinkIntervalMs',
      problem: /whole number, got the text "3000"/,
      fix: /Remove the quotes: "thinkIntervalMs": 3000/,
    },
    {
      name: 'fraction for an int',
      config: { maxAutonomousCycles: 2.5 },
      field: 'maxAutonomousCycles',
      problem: /whole number, got the number 2\.5/,
      fix: /≥ 0 \(0 = unlimited\)/,
    },
    {
      name: 'negative interval',
      config: { thinkIntervalMs: -1 },
      field: 'thinkIntervalMs',
      problem: /must be a whole number ≥ 0, got the number -1/,
      fix: /e\.g\. 3000 \(the default\)/,
    },
    {
      name: 'negative budget',
      config: { tokenBudgetPerHour: -100 },
      field: 'tokenBudgetPerHour',
      problem: /≥ 0 \(0 = no budget\)/,
      fix: /e\.g\. 0/,
    },
    {
      name: 'compressAt of 1',
      config: { compressAt: 1 },
      field: 'compressAt',
      problem: /between 0 and 1 \(exclusive\), got the number 1/,
      fix: /0\.7/,
    },
    {
      name: 'compressAt of 0',
      config: { compressAt: 0 },
      field: 'compressAt',
      problem: /between 0 and 1/,
      fix: /between 0 and 1/,
    },
    {
      name: 'zero context window',
      config: { contextWindow: 0 },
      field: 'contextWindow',
      problem: /≥ 1, got the number 0/,
      fix: /whole number ≥ 1/,
    },
    {
      name: 'bad URL',
      config: { baseURL: 'api.deepseek.com/v1' },
      field: 'baseURL',
      problem: /"api\.deepseek\.com\/v1" is not a web address/,
      fix: /https:\/\/api\.deepseek\.com\/v1/,
    },
    {
      name: 'non-http URL',
      config: { baseURL: 'ftp://example.com' },
      field: 'baseURL',
      problem: /not a web address starting with http/,
      fix: /full address with its scheme/,
    },
    {
      name: 'bad nested URL',
      config: { search: { searxngUrl: 'localhost:8888' } },
      field: 'search.searxngUrl',
      problem: /not a web address/,
      fix: /http:\/\/localhost:8888/,
    },
    {
      name: 'bad enum',
      config: { provider: 'ollama' },
      field: 'provider',
      problem: /"ollama" is not one of the allowed values/,
      fix: /"openai-compatible", "local"/,
    },
    {
      name: 'allowHosts entry with a scheme and path',
      config: { fetch: { allowHosts: ['http://localhost:8888/'] } },
      field: 'fetch.allowHosts.0',
      problem: /is not a host or host:port/,
      fix: /"localhost:8888"/,
    },
    {
      name: 'zero calls per reply',
      config: { maxToolCallsPerReply: 0 },
      field: 'maxToolCallsPerReply',
      problem: /./,
      fix: /./,
    },
    {
      name: 'bad enum with a close match',
      config: { approval: { destructive: 'aks' } },
      field: 'approval.destructive',
      problem: /"aks" is not one/,
      fix: /"auto", "ask", "deny"\. Did you mean "ask"\?/,
    },
    {
      name: 'bad language',
      config: { language: 'cn' },
      field: 'language',
      problem: /"cn"/,
      fix: /"en", "zh", "auto"/,
    },
    {
      name: 'unknown key with a suggestion',
      config: { thinkIntervallMs: 1000 },
      field: 'thinkIntervallMs',
      problem: /unknown setting/,
      fix: /Did you mean "thinkIntervalMs"\?/,
    },
    {
      name: 'unknown key, wrong case',
      config: { baseUrl: 'https://x.example/v1' },
      field: 'baseUrl',
      problem: /unknown setting/,
      fix: /Did you mean "baseURL"\?/,
    },
    {
      name: 'unknown nested key',
      config: { approval: { wirte: 'ask' } },
      field: 'approval.wirte',
      problem: /unknown setting in "approval"/,
      fix: /Did you mean "write"\?/,
    },
    {
      name: 'unknown key without a near match',
      config: { colour: 'blue' },
      field: 'colour',
      problem: /unknown setting/,
      fix: /Remove it\. Known settings: provider, baseURL/,
    },
    {
      name: 'string for boolean',
      config: { quirks: { sendReasoningInHistory: 'true' } },
      field: 'quirks.sendReasoningInHistory',
      problem: /true or false, got the text "true"/,
      fix: /Remove the quotes/,
    },
    {
      name: 'number for string',
      config: { model: 4 },
      field: 'model',
      problem: /text in double quotes, got the number 4/,
      fix: /e\.g\. "deepseek-chat"/,
    },
    {
      name: 'empty model',
      config: { model: '' },
      field: 'model',
      problem: /is empty/,
      fix: /remove "model" to use the default \("deepseek-chat"\)/,
    },
    {
      name: 'list for an object',
      config: { approval: ['ask'] },
      field: 'approval',
      problem: /must be an object \{ \.\.\. \}, got a list/,
      fix: /as an object/,
    },
    {
      name: 'backoff max below base',
      config: { backoff: { baseMs: 5000, maxMs: 1000 } },
      field: 'backoff.maxMs',
      problem: /smaller than backoff\.baseMs/,
      fix: /at least backoff\.baseMs/,
    },
    {
      name: 'local provider without a model file',
      config: { provider: 'local' },
      field: 'modelPath',
      problem: /provider is "local"/,
      fix: /"modelPath"/,
    },
    {
      name: 'maxResults out of range',
      config: { search: { maxResults: 500 } },
      field: 'search.maxResults',
      problem: /from 1 to 50, got the number 500/,
      fix: /e\.g\. 8/,
    },
    {
      name: 'not an object at all',
      config: '[1, 2]',
      field: '(file)',
      problem: /one JSON object/,
      fix: /Wrap the settings in \{ \}/,
    },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      await writeConfig(c.config);
      const errors = errorsOf(load());
      const issue = errors.find((e) => e.field === c.field);
      expect(issue, JSON.stringify(errors)).toBeDefined();
      expect(issue?.problem).toMatch(c.problem);
      expect(issue?.fix).toMatch(c.fix);
    });
  }

  it('reports every problem at once, not only the first', async () => {
    await writeConfig({ thinkIntervalMs: -1, provider: 'x', colour: 1 });
    expect(
      errorsOf(load())
        .map((e) => e.field)
        .sort(),
    ).toEqual(['colour', 'provider', 'thinkIntervalMs']);
  });

  it('never echoes a secret in a message', async () => {
    await writeConfig({ apiKey: 12345678, search: { tavilyKey: 987654 } });
    const errors = errorsOf(load());
    expect(errors.map((e) => e.field).sort()).toEqual(['apiKey', 'search.tavilyKey']);
    const text = JSON.stringify(errors) + formatConfigIssues(errors, file());
    expect(text).not.toContain('12345678');
    expect(text).not.toContain('987654');
    expect(errors[0]?.problem).toMatch(/got a number/);
  });
});

describe('loadConfig: invalid JSON points at the spot', () => {
  const cases = [
    {
      name: 'trailing comma',
      text: '{\n  "model": "x",\n}',
      line: 3,
      column: 1,
      fix: /trailing comma/,
    },
    {
      name: 'comment',
      text: '{\n  // my key\n  "model": "x"\n}',
      line: 2,
      column: 3,
      fix: /comments/,
    },
    { name: 'single quotes', text: "{ 'model': 'x' }", line: 1, column: 3, fix: /double quotes/ },
    {
      name: 'unquoted key',
      text: '{\n  model: "x"\n}',
      line: 2,
      column: 3,
      fix: /key in double quotes/,
    },
    {
      name: 'missing comma',
      text: '{\n  "model": "x"\n  "persona": "chef"\n}',
      line: 3,
      column: 3,
      fix: /Add a comma/,
    },
    { name: 'cut short', text: '{\n  "model": ', line: 2, column: 12, fix: /ends too early/ },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      await writeConfig(c.text);
      const [issue, ...rest] = errorsOf(load());
      expect(rest).toEqual([]);
      expect(issue).toMatchObject({ field: '(file)', line: c.line, column: c.column });
      expect(issue?.problem).toMatch(new RegExp(`line ${c.line}, column ${c.column}`));
      expect(issue?.fix).toMatch(c.fix);
    });
  }

  it('accepts a UTF-8 byte-order mark', async () => {
    await writeConfig('\uFEFF{ "model": "gpt-4o" }');
    const result = load();
    expect(result.ok && result.config.model).toBe('gpt-4o');
  });
});

describe('loadConfig: precedence flags > env > file > defaults', () => {
  it('takes each layer in order and records the source', async () => {
    await writeConfig({
      model: 'from-file',
      baseURL: 'https://file.example/v1',
      apiKey: 'file-key',
      persona: 'chef',
    });
    const fileOnly = load();
    expect(fileOnly.ok && fileOnly.config.model).toBe('from-file');

    const env = {
      COGITO_MODEL: 'from-env',
      COGITO_BASE_URL: 'https://env.example/v1',
      OPENAI_API_KEY: 'openai-key',
    };
    const withEnv = load({ env });
    if (!withEnv.ok) throw new Error('unexpected');
    expect(withEnv.config).toMatchObject({
      model: 'from-env',
      baseURL: 'https://env.example/v1',
      apiKey: 'openai-key',
      persona: 'chef',
    });
    expect(withEnv.sources.fields.apiKey).toEqual({ from: 'env', name: 'OPENAI_API_KEY' });

    const withFlags = load({
      env,
      flags: { model: 'from-flag', baseUrl: 'https://flag.example/v1', persona: 'hermit' },
    });
    if (!withFlags.ok) throw new Error('unexpected');
    expect(withFlags.config).toMatchObject({
      model: 'from-flag',
      baseURL: 'https://flag.example/v1',
      persona: 'hermit',
      apiKey: 'openai-key',
    });
    expect(withFlags.sources.fields.model).toEqual({ from: 'flag', name: '--model' });
    expect(withFlags.sources.fields.persona).toEqual({ from: 'flag', name: '--persona' });
    expect(withFlags.sources.fields.thinkIntervalMs).toEqual({ from: 'default' });
    expect(withFlags.fileValues).toMatchObject({ model: 'from-file' });
  });

  it('prefers COGITO_API_KEY over OPENAI_API_KEY and ignores empty variables', async () => {
    await writeConfig({ apiKey: 'file-key' });
    const both = load({ env: { COGITO_API_KEY: 'cogito-key', OPENAI_API_KEY: 'openai-key' } });
    expect(both.ok && both.config.apiKey).toBe('cogito-key');
    const empty = load({ env: { COGITO_API_KEY: '', OPENAI_API_KEY: '  ' } });
    expect(empty.ok && empty.config.apiKey).toBe('file-key');
  });

  it('names the variable or flag when an override is invalid', async () => {
    const fromEnv = errorsOf(load({ env: { COGITO_BASE_URL: 'not a url' } }));
    expect(fromEnv[0]).toMatchObject({ field: 'baseURL' });
    expect(fromEnv[0]?.problem).toMatch(/\(from COGITO_BASE_URL\)$/);
    const fromFlag = errorsOf(load({ flags: { baseUrl: 'localhost:1234' } }));
    expect(fromFlag[0]?.problem).toMatch(/\(from --base-url\)$/);
  });

  it('resolves the workspace: the flag against cwd, else cwd; a file value is ignored', async () => {
    const { mkdir } = await import('node:fs/promises');
    await mkdir(path.join(home, 'ws-file'));
    await mkdir(path.join(home, 'sub', 'ws-flag'), { recursive: true });
    // An earlier version's wizard stored this: it must not pin the run to that folder.
    await writeConfig({ workspace: 'ws-file' });
    const fromFile = load({ cwd: path.join(home, 'sub') });
    expect(fromFile.ok && fromFile.config.workspace).toBe(path.join(home, 'sub'));
    expect(fromFile.ok && fromFile.sources.fields.workspace).toEqual({ from: 'default' });
    expect(fromFile.ok && fromFile.fileValues['workspace']).toBe('ws-file');
    const fromFlag = load({ cwd: path.join(home, 'sub'), flags: { workspace: 'ws-flag' } });
    expect(fromFlag.ok && fromFlag.config.workspace).toBe(path.join(home, 'sub', 'ws-flag'));
    await writeConfig({});
    const byDefault = load({ cwd: path.join(home, 'sub') });
    expect(byDefault.ok && byDefault.config.workspace).toBe(path.join(home, 'sub'));
  });

  it('rejects a workspace that does not exist', async () => {
    const errors = errorsOf(load({ flags: { workspace: 'nowhere' } }));
    expect(errors[0]).toMatchObject({ field: 'workspace' });
    expect(errors[0]?.problem).toMatch(/does not exist \(from --workspace\)/);
  });

  it('finds the home from the flag, then COGITO_HOME', async () => {
    const other = await mkdtemp(path.join(os.tmpdir(), 'cogito-home2-'));
    try {
      await writeFile(path.join(other, 'config.json'), '{"model":"m-other"}');
      const viaEnv = loadConfig({ env: { COGITO_HOME: other }, cwd: home });
      expect(viaEnv.ok && [viaEnv.home, viaEnv.config.model, viaEnv.sources.home]).toEqual([
        other,
        'm-other',
        'env',
      ]);
      await writeConfig({ model: 'm-flag' });
      const viaFlag = loadConfig({ env: { COGITO_HOME: other }, flags: { home }, cwd: home });
      expect(viaFlag.ok && [viaFlag.home, viaFlag.config.model, viaFlag.sources.home]).toEqual([
        home,
        'm-flag',
        'flag',
      ]);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });
});

describe('formatConfigIssues', () => {
  it('renders each field, problem and fix with the file path', () => {
    const text = formatConfigIssues(
      [
        {
          field: 'thinkIntervalMs',
          problem: 'must be a whole number ≥ 0, got the number -1',
          fix: 'Use 3000.',
        },
        {
          field: '(file)',
          problem: 'not valid JSON',
          fix: 'Remove the comma.',
          line: 3,
          column: 1,
        },
      ],
      '/h/config.json',
    );
    expect(text).toContain('2 problems');
    expect(text).toContain('thinkIntervalMs: must be a whole number ≥ 0');
    expect(text).toContain('fix: Use 3000.');
    expect(text).toContain('/h/config.json:3:1: not valid JSON');
    expect(text).toContain('The file was not changed');
  });
});
