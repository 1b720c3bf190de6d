/**
 * The setup wizard on screen, with the real services: a scripted OpenAI-compatible server
 * for /models and the connection test, a temp home for config.json, and the detector
 * pointed at the scripted server's port (or at a closed one).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { createSetupServices, type SetupServices } from '../../src/setup/services.js';
import { KEY, renderWizard, type WizardHarness } from '../helpers/renderWizard.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { closedPort } from '../setup/closedPort.js';

const SECRET = 'sk-wizard-secret-0123456789';
const WRONG = 'sk-wrong-key-9876543210';

let tmp: string;
let home: string;
let ws: string;
let server: ScriptedServer | undefined;
let h: WizardHarness | undefined;
beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'cogito-wizard-'));
  home = path.join(tmp, 'home');
  ws = path.join(tmp, 'ws');
  await fs.mkdir(home);
  await fs.mkdir(ws);
});
afterEach(async () => {
  h?.unmount();
  h = undefined;
  await server?.close();
  server = undefined;
  await fs.rm(tmp, { recursive: true, force: true });
});

const configFile = (): string => path.join(home, 'config.json');
const portOf = (s: ScriptedServer): number => Number(new URL(s.url).port);
async function homeIsEmpty(): Promise<boolean> {
  return (await fs.readdir(home)).length === 0;
}

/** Real services; detection probes only `ollamaPort` (a closed port unless given). */
async function services(ollamaPort?: number): Promise<SetupServices> {
  return createSetupServices({
    home,
    timeoutMs: 2000,
    detect: { ports: { ollama: ollamaPort ?? (await closedPort()) } },
  });
}

/** Language (English), then the "Other OpenAI-compatible" preset and its address. */
async function toCustomKey(w: WizardHarness, url: string): Promise<void> {
  w.press(KEY.enter);
  await w.waitFor((f) => f.includes('Where should the model run?'), 'the provider step');
  await w.waitFor((f) => f.includes('Local GGUF model file'), 'detection to finish');
  w.type('other');
  await w.waitFor((f) => f.includes('Filter: other') && f.includes('› Other OpenAI-compatible'));
  w.press(KEY.enter);
  await w.waitFor((f) => f.includes('Service address (base URL)'), 'the address step');
  w.type(url);
  w.press(KEY.enter);
  await w.waitFor((f) => f.includes('API key'), 'the key step');
}

/** From a passed test to the end: persona (filtered), save. */
async function finish(w: WizardHarness): Promise<string> {
  w.press(KEY.enter);
  await w.waitFor((f) => f.includes('Choose a persona'), 'the persona step');
  w.type('detect');
  await w.waitFor((f) => f.includes('› Detective'));
  w.press(KEY.enter);
  const summary = await w.waitFor((f) => f.includes('Save and start?'), 'the confirm step');
  expect(await homeIsEmpty()).toBe(true);
  w.press(KEY.enter);
  await w.done();
  return summary;
}

describe('the setup wizard', () => {
  test('happy flow: models listed, one picked, connection OK, config saved 0600; the key is never shown', async () => {
    server = await startScriptedServer({ requireKey: SECRET });
    server.setModels(['model-a', 'model-b', 'model-c']);
    h = await renderWizard({ services: await services() });
    expect(h.frame()).toContain('Welcome to Cogito');
    await toCustomKey(h, server.url);
    h.type(SECRET);
    await h.waitFor((f) => f.includes('•'.repeat(SECRET.length)), 'the masked key');
    h.press(KEY.enter);
    await h.waitFor((f) => f.includes('The server offers these models:'), 'the model list');
    expect(h.frame()).toMatch(/› model-a\n\s+model-b\n\s+model-c\n\s+Another model/);
    h.press(KEY.down, KEY.enter);
    await h.waitFor((f) => f.includes('✓ Connected.'), 'the connection test');
    expect((await server.waitForRequest(0)).body.model).toBe('model-b');

    const summary = await finish(h);
    expect(summary).toMatch(/API key\s+set \(hidden\)/);
    expect(summary).toMatch(/Model\s+model-b/);
    expect(h.outcomes).toEqual([
      { saved: true, answers: expect.objectContaining({ model: 'model-b' }) },
    ]);

    expect((await fs.stat(configFile())).mode & 0o777).toBe(0o600);
    const loaded = loadConfig({ home, env: {}, cwd: ws });
    expect(loaded.ok && loaded.config).toMatchObject({
      provider: 'openai-compatible',
      baseURL: server.url,
      apiKey: SECRET,
      model: 'model-b',
      workspace: ws,
      persona: 'detective',
      language: 'en',
    });
    for (const frame of h.frames()) expect(frame).not.toContain(SECRET);
  });

  test('a rejected key: verdict shown, nothing written, Esc back to the key, then success', async () => {
    server = await startScriptedServer({ requireKey: SECRET });
    server.setModels(['model-a']);
    h = await renderWizard({ services: await services() });
    await toCustomKey(h, server.url);
    h.type(WRONG);
    h.press(KEY.enter);
    // The list needs the key too, so the name is typed.
    await h.waitFor((f) => f.includes('did not list its models'), 'the typed-model fallback');
    h.type('model-a');
    h.press(KEY.enter);
    const verdict = await h.waitFor((f) => f.includes('✗'), 'the verdict');
    expect(verdict).toContain('The server rejected the API key.');
    expect(verdict).toContain('Press Esc to correct the key');
    expect(await homeIsEmpty()).toBe(true);

    h.press(KEY.esc);
    await h.waitFor((f) => f.includes('API key') && f.includes('•'), 'back on the key step');
    h.press(KEY.ctrl('u'));
    h.type(SECRET);
    h.press(KEY.enter);
    await h.waitFor((f) => f.includes('› model-a'), 'the model list, now that the key works');
    h.press(KEY.enter);
    await h.waitFor((f) => f.includes('✓ Connected.'));
    await finish(h);
    const loaded = loadConfig({ home, env: {} });
    expect(loaded.ok && loaded.config.apiKey).toBe(SECRET);
    for (const frame of h.frames()) {
      expect(frame).not.toContain(SECRET);
      expect(frame).not.toContain(WRONG);
    }
  });

  test('an unreachable address: verdict unreachable, nothing written, Esc back to the address', async () => {
    const port = await closedPort();
    h = await renderWizard({ services: await services() });
    await toCustomKey(h, `http://127.0.0.1:${port}/v1`);
    h.press(KEY.enter); // no key: allowed for a custom server
    await h.waitFor((f) => f.includes('connection refused'), 'the typed-model fallback');
    h.type('some-model');
    h.press(KEY.enter);
    const verdict = await h.waitFor((f) => f.includes('✗'), 'the verdict');
    expect(verdict).toContain('The server could not be reached.');
    expect(verdict).toContain(`127.0.0.1:${port}`);
    expect(await homeIsEmpty()).toBe(true);
    h.press(KEY.esc);
    await h.waitFor((f) => f.includes('Service address (base URL)'), 'back on the address');
    expect(await homeIsEmpty()).toBe(true);
  });

  test('when /models fails, the model is typed, and the test uses that name', async () => {
    server = await startScriptedServer();
    server.setModels({ status: 404 });
    h = await renderWizard({ services: await services() });
    await toCustomKey(h, server.url);
    h.press(KEY.enter);
    const typed = await h.waitFor((f) => f.includes('Model name'), 'the model step');
    await h.waitFor((f) => f.includes('did not list its models') && f.includes('HTTP 404'));
    expect(typed).not.toContain('Another model');
    h.press(KEY.enter);
    await h.waitFor((f) => f.includes('Type a model name.'), 'the empty-name error');
    h.type('typed-model');
    h.press(KEY.enter);
    await h.waitFor((f) => f.includes('✓ Connected.'));
    expect((await server.waitForRequest(0)).body.model).toBe('typed-model');
  });

  test('a server running on this machine is offered first and needs no key', async () => {
    server = await startScriptedServer();
    server.setModels(['qwen2.5:latest', 'llama3.1:latest']);
    h = await renderWizard({ services: await services(portOf(server)) });
    h.press(KEY.enter);
    const list = await h.waitFor((f) => f.includes('running here'), 'the detected server');
    const first = list.split('\n').find((l) => l.startsWith('›'));
    expect(first).toMatch(/^› Ollama\s+running here at http:\/\/127\.0\.0\.1:\d+\/v1; models: 2/);
    h.press(KEY.enter);
    // No key step: straight to the server's models.
    await h.waitFor((f) => f.includes('› llama3.1:latest'), 'the model list');
    expect(h.frame()).toContain('Step 3 of 6');
    h.press(KEY.enter);
    await h.waitFor((f) => f.includes('✓ Connected.'));
    const summary = await finish(h);
    expect(summary).not.toContain('API key');
    const loaded = loadConfig({ home, env: {} });
    expect(loaded.ok && loaded.config).toMatchObject({
      baseURL: server.url,
      model: 'llama3.1:latest',
    });
    expect(loaded.ok && loaded.config.apiKey).toBeUndefined();
  });

  test('Esc goes back a step, from lists, fields and the model list alike', async () => {
    server = await startScriptedServer();
    h = await renderWizard({ services: await services(portOf(server)) });
    h.press(KEY.enter);
    await h.waitFor((f) => f.includes('running here'));
    h.press(KEY.enter);
    await h.waitFor((f) => f.includes('› scripted-model'));
    h.press(KEY.esc);
    await h.waitFor((f) => f.includes('Where should the model run?'));
    h.press(KEY.esc);
    await h.waitFor((f) => f.includes('Step 1'));
    h.press(KEY.esc); // the first step: nowhere further back, and it does not quit
    h.press(KEY.down);
    await h.waitFor((f) => f.includes('› 简体中文'));
    expect(h.outcomes).toEqual([]);
    h.press(KEY.enter);
    // Chinese from here on.
    await h.waitFor((f) => f.includes('模型在哪里运行？'));
    h.press(KEY.down, KEY.enter); // DeepSeek
    await h.waitFor((f) => f.includes('API 密钥'));
    h.press(KEY.esc);
    await h.waitFor((f) => f.includes('模型在哪里运行？'));
  });

  test('quitting writes nothing, even from the last step', async () => {
    server = await startScriptedServer();
    h = await renderWizard({ services: await services(portOf(server)) });
    h.press(KEY.enter);
    await h.waitFor((f) => f.includes('running here'));
    h.press(KEY.enter);
    await h.waitFor((f) => f.includes('› scripted-model'));
    h.press(KEY.enter);
    await h.waitFor((f) => f.includes('✓ Connected.'));
    h.press(KEY.enter);
    await h.waitFor((f) => f.includes('Choose a persona'));
    h.press(KEY.enter);
    await h.waitFor((f) => f.includes('Save and start?'));
    h.press(KEY.ctrl('c'));
    expect(await h.done()).toEqual({ saved: false });
    expect(await homeIsEmpty()).toBe(true);
  });

  test('asks for no workspace, never offers the checkout, and stores none', async () => {
    // A config from an earlier version that pinned a folder: the wizard takes it out.
    await fs.writeFile(configFile(), JSON.stringify({ workspace: process.cwd() }));
    server = await startScriptedServer();
    const w = await renderWizard({ services: await services(portOf(server)) });
    h = w;
    const seen: string[] = [w.frame()];
    const step = async (text: string): Promise<void> => {
      seen.push(await w.waitFor((f) => f.includes(text)));
    };
    h.press(KEY.enter);
    await step('running here');
    h.press(KEY.enter);
    await step('› scripted-model');
    h.press(KEY.enter);
    await step('✓ Connected.');
    h.press(KEY.enter);
    await step('Choose a persona');
    h.press(KEY.enter);
    await step('Save and start?');
    h.press(KEY.enter);
    expect(await h.done()).toMatchObject({ saved: true });
    // Cogito's own folder (this checkout) is never shown, nor any workspace question.
    for (const frame of seen) {
      expect(frame).not.toContain('Workspace folder');
      expect(frame).not.toContain(process.cwd());
    }
    const saved = JSON.parse(await fs.readFile(configFile(), 'utf8')) as Record<string, unknown>;
    expect(saved).not.toHaveProperty('workspace');
    expect(saved).toMatchObject({ model: 'scripted-model' });
  });

  test('a local GGUF file: the path is checked by loading it, a bad file sends you back to the path', async () => {
    const checked: string[] = [];
    const fake = createSetupServices({
      home,
      detect: { ports: {} },
      checkModelFile: async (p) => {
        checked.push(p);
        return p.endsWith('good.gguf')
          ? {
              ok: true,
              info: { path: p, sizeBytes: 3_000_000, architecture: 'llama', name: 'Tiny' },
            }
          : { ok: false, error: { kind: 'unavailable', message: `${p} is not a GGUF file` } };
      },
    });
    h = await renderWizard({ services: fake });
    h.press(KEY.enter);
    await h.waitFor((f) => f.includes('Local GGUF model file'));
    h.type('gguf');
    await h.waitFor((f) => f.includes('› Local GGUF model file'));
    h.press(KEY.enter);
    await h.waitFor((f) => f.includes('Path to the .gguf model file'));
    h.type('/m/bad.bin');
    h.press(KEY.enter);
    const bad = await h.waitFor((f) => f.includes('✗'));
    expect(bad).toContain('The model file cannot be used.');
    expect(bad).toContain('/m/bad.bin is not a GGUF file');
    h.press(KEY.esc);
    await h.waitFor((f) => f.includes('Path to the .gguf model file'));
    h.press(KEY.ctrl('u'));
    h.type('/m/good.gguf');
    h.press(KEY.enter);
    await h.waitFor((f) => f.includes('✓ The model file loads: Tiny · llama · 3 MB'));
    const summary = await finish(h);
    expect(summary).toMatch(/Model file\s+\/m\/good\.gguf/);
    expect(checked).toEqual(['/m/bad.bin', '/m/good.gguf']);
    const loaded = loadConfig({ home, env: {} });
    expect(loaded.ok && loaded.config).toMatchObject({
      provider: 'local',
      modelPath: '/m/good.gguf',
    });
  });
});
