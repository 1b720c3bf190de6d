import { afterEach, describe, expect, test } from 'vitest';
import { testConnection } from '../../src/setup/connection.js';
import { detectLocalServers } from '../../src/setup/detect.js';
import { listModels, modelInList } from '../../src/setup/models.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { closedPort, fixedServer } from './closedPort.js';

const KEY = 'sk-setup-secret-0123456789';
const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function scripted(opts: { requireKey?: string } = {}): Promise<ScriptedServer> {
  const s = await startScriptedServer(opts);
  servers.push(s);
  return s;
}
const portOf = (s: ScriptedServer): number => Number(new URL(s.url).port);

describe('listModels', () => {
  test('lists the ids, sorted, sending the key', async () => {
    const s = await scripted({ requireKey: KEY });
    s.setModels(['zeta', 'alpha', 'alpha', 'mid']);
    expect(await listModels(s.url, KEY)).toEqual({ ok: true, models: ['alpha', 'mid', 'zeta'] });
  });

  test('a rejected key is bad_key, and the key never appears in the message', async () => {
    const s = await scripted({ requireKey: KEY });
    const r = await listModels(s.url, 'sk-wrong-key-9999');
    expect(r).toMatchObject({ ok: false, kind: 'bad_key', status: 401 });
    expect(JSON.stringify(r)).not.toContain('sk-wrong-key-9999');
    expect(await listModels(s.url, '')).toMatchObject({ kind: 'bad_key' });
  });

  test('a closed port is unreachable; a bad address says how to write it', async () => {
    const port = await closedPort();
    const r = await listModels(`http://127.0.0.1:${port}/v1`);
    expect(r).toMatchObject({ ok: false, kind: 'unreachable' });
    expect(!r.ok && r.message).toContain('connection refused');
    const bad = await listModels('api.deepseek.com');
    expect(bad).toMatchObject({ ok: false, kind: 'unreachable' });
    expect(!bad.ok && bad.message).toContain('https://');
  });

  test('a server without a model list is "other", with the status', async () => {
    const s = await scripted();
    s.setModels({ status: 404 });
    expect(await listModels(s.url)).toMatchObject({ ok: false, kind: 'other', status: 404 });
    const html = await fixedServer({ '/v1/models': { status: 200, body: '{"hello":1}' } });
    servers.push(html);
    const r = await listModels(`http://127.0.0.1:${html.port}/v1`);
    expect(r).toMatchObject({ ok: false, kind: 'other' });
  });

  test('a name without a tag matches Ollama\'s ":latest"', () => {
    expect(modelInList('llama3.1', ['llama3.1:latest'])).toBe(true);
    expect(modelInList('Llama3.1:latest', ['llama3.1'])).toBe(true);
    expect(modelInList('llama3.1:8b', ['llama3.1:latest'])).toBe(false);
  });
});

describe('detectLocalServers', () => {
  test('finds a server answering a model list on a probed port', async () => {
    const s = await scripted();
    s.setModels(['qwen2.5:latest']);
    const closed = await closedPort();
    const found = await detectLocalServers({ ports: { ollama: portOf(s), lmstudio: closed } });
    expect(found).toEqual([
      {
        presetId: 'ollama',
        baseURL: `http://127.0.0.1:${portOf(s)}/v1`,
        models: ['qwen2.5:latest'],
      },
    ]);
  });

  test('an unrelated web server on the port does not count', async () => {
    const other = await fixedServer({ '/': { status: 200, body: '<html></html>' } });
    servers.push(other);
    expect(await detectLocalServers({ ports: { llamacpp: other.port } })).toEqual([]);
  });

  test('an older Ollama is found through /api/tags', async () => {
    const ollama = await fixedServer({
      '/api/tags': { status: 200, body: JSON.stringify({ models: [{ name: 'llama3:latest' }] }) },
    });
    servers.push(ollama);
    const found = await detectLocalServers({ ports: { ollama: ollama.port } });
    expect(found).toEqual([
      {
        presetId: 'ollama',
        baseURL: `http://127.0.0.1:${ollama.port}/v1`,
        models: ['llama3:latest'],
      },
    ]);
  });
});

describe('testConnection', () => {
  test('passes with a working key and model, after one chat request for that model', async () => {
    const s = await scripted({ requireKey: KEY });
    s.setModels(['m1', 'm2']);
    expect(await testConnection({ baseURL: s.url, apiKey: KEY, model: 'm2' })).toEqual({
      ok: true,
    });
    const req = await s.waitForRequest(0);
    expect(req.body.model).toBe('m2');
    expect(req.body.max_tokens).toBeUndefined();
    expect(s.requests).toHaveLength(1);
  });

  test('the chat request is closed as soon as the server accepts it', async () => {
    const s = await scripted();
    s.push({
      kind: 'stream',
      content: Array.from({ length: 200 }, () => 'word '),
      chunkDelayMs: 20,
    });
    expect(await testConnection({ baseURL: s.url, model: 'scripted-model' })).toEqual({ ok: true });
    const closed = await s.waitForClose(0);
    expect(closed.completed).toBe(false);
  });

  test('a rejected key is bad_key, without a chat request', async () => {
    const s = await scripted({ requireKey: KEY });
    const v = await testConnection({ baseURL: s.url, apiKey: 'sk-wrong-key-9999', model: 'm' });
    expect(v).toMatchObject({ ok: false, kind: 'bad_key' });
    expect(JSON.stringify(v)).not.toContain('sk-wrong-key-9999');
    expect(s.requests).toHaveLength(0);
  });

  test('a key the list accepts but the chat rejects is still bad_key', async () => {
    const s = await scripted();
    s.push({ kind: 'error', status: 401, body: { error: { message: 'Invalid key' } } });
    const v = await testConnection({ baseURL: s.url, apiKey: KEY, model: 'scripted-model' });
    expect(v).toMatchObject({ ok: false, kind: 'bad_key' });
    expect(JSON.stringify(v)).not.toContain(KEY);
  });

  test('a closed port is unreachable', async () => {
    const port = await closedPort();
    const v = await testConnection({ baseURL: `http://127.0.0.1:${port}/v1`, model: 'm' });
    expect(v).toMatchObject({ ok: false, kind: 'unreachable' });
  });

  test('a server that never answers is unreachable after the timeout', async () => {
    const s = await scripted();
    s.setModels({ status: 404 });
    s.push({ kind: 'hang' });
    const v = await testConnection({ baseURL: s.url, model: 'm', timeoutMs: 300 });
    expect(v).toMatchObject({ ok: false, kind: 'unreachable' });
  });

  test('an unknown model: 404 from the chat, or 400 for a model the list lacks', async () => {
    const s = await scripted();
    s.setModels(['deepseek-chat', 'deepseek-reasoner']);
    s.push({ kind: 'error', status: 404, body: { error: { message: 'model not found' } } });
    const v404 = await testConnection({ baseURL: s.url, model: 'gpt-5' });
    expect(v404).toMatchObject({ ok: false, kind: 'unknown_model' });
    expect(!v404.ok && v404.message).toContain('deepseek-chat, deepseek-reasoner');

    s.push({ kind: 'error', status: 400, body: { error: { message: 'Model Not Exist' } } });
    const v400 = await testConnection({ baseURL: s.url, model: 'deepseek-chatt' });
    expect(v400).toMatchObject({ ok: false, kind: 'unknown_model' });
  });

  test('a model missing from the list but served anyway passes', async () => {
    const s = await scripted();
    s.setModels(['listed']);
    expect(await testConnection({ baseURL: s.url, model: 'unlisted' })).toEqual({ ok: true });
  });

  test('a server error on a listed model is "other", with the server\'s words', async () => {
    const s = await scripted();
    s.push({ kind: 'error', status: 500, body: { error: { message: 'GPU on fire' } } });
    const v = await testConnection({ baseURL: s.url, model: 'scripted-model' });
    expect(v).toMatchObject({ ok: false, kind: 'other' });
    expect(!v.ok && v.message).toContain('GPU on fire');
  });
});
