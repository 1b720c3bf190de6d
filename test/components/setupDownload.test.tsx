/**
 * The wizard's Private choice on screen, with the real services: a loopback server serves a
 * tiny GGUF (written by the test) through COGITO_MODELS_URL; the download shows progress,
 * resumes after the server drops the connection, is verified and configured; Esc cancels a
 * download and leaves nothing configured; a checksum mismatch is refused.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { catalogModel } from '../../src/models/catalog.js';
import type { MachineProfile } from '../../src/models/propose.js';
import { inspectModelFile } from '../../src/providers/local/modelFile.js';
import { createSetupServices } from '../../src/setup/services.js';
import { runCogito } from '../helpers/cogitoProcess.js';
import { startModelServer, type ModelServer, type ServedFile } from '../helpers/modelServer.js';
import { KEY, renderWizard, type WizardHarness } from '../helpers/renderWizard.js';
import { writeTinyGguf } from '../helpers/tinyGguf.js';

const GB = 1_000_000_000;
/** An 8 GB laptop: the 3B model is proposed. */
const LAPTOP: MachineProfile = {
  totalMemBytes: 8 * 1024 ** 3,
  freeMemBytes: 5 * GB,
  threads: 8,
  freeDiskBytes: 100 * GB,
};
const MEDIUM = catalogModel('medium');

let tmp: string;
let home: string;
let ws: string;
let gguf: Buffer;
let server: ModelServer | undefined;
let h: WizardHarness | undefined;

beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'cogito-wizdl-'));
  home = path.join(tmp, 'home');
  ws = path.join(tmp, 'ws');
  await fs.mkdir(home);
  await fs.mkdir(ws);
  // Replies end at once and the trained context holds Cogito's prompt in the tiny model's
  // character-sized tokens, so a real -p turn can run on the downloaded file.
  await writeTinyGguf(path.join(tmp, 'tiny.gguf'), { contextLength: 32_768, endsAtOnce: true });
  gguf = await fs.readFile(path.join(tmp, 'tiny.gguf'));
});
afterEach(async () => {
  h?.unmount();
  h = undefined;
  await server?.close();
  server = undefined;
  await fs.rm(tmp, { recursive: true, force: true });
});

async function open(served: ServedFile): Promise<WizardHarness> {
  server = await startModelServer({ [MEDIUM.file]: served });
  const services = createSetupServices({
    home,
    detect: { ports: {} },
    env: { COGITO_MODELS_URL: server.url },
    machine: LAPTOP,
    // The file checks without llama.cpp's load (seconds on a busy machine; the load itself
    // is covered by the local provider's tests and the --download-model -p run).
    checkModelFile: async (p) => {
      const r = await inspectModelFile(p);
      return r.ok ? { ok: true, info: { path: r.path, sizeBytes: r.sizeBytes, name: 'tiny' } } : r;
    },
  });
  const w = await renderWizard({ services });
  w.press(KEY.enter);
  await w.waitFor((f) => f.includes('Local GGUF model file'), 'the provider list');
  expect(w.frame()).toMatch(/› Private: download a local model and run it here/);
  w.press(KEY.enter);
  await w.waitFor((f) => f.includes('This machine:'), 'the download step');
  return w;
}

describe('the Private choice', () => {
  test('proposes a model for the machine, downloads with progress, resumes, verifies, saves', async () => {
    h = await open({ body: gguf, sha256: true, dropAfterBytes: Math.floor(gguf.length / 2) });
    const choose = h.frame();
    expect(choose).toContain('This machine: 8.59 GB memory, 8 threads, 100.00 GB free');
    expect(choose).toMatch(/› Qwen2\.5 3B Instruct \(Q4_K_M\) \(proposed\)/);
    expect(choose).toMatch(/2\.10 GB · needs ~4\.00 GB memory/);
    expect(choose).toMatch(/not enough memory: needs ~7\.50 GB/);
    h.press(KEY.enter);
    await h.waitFor((f) => f.includes('The model file loads: tiny'), 'the test step to pass');
    const shown = h.frames().join('\n');
    expect(shown).toContain(`Downloading ${MEDIUM.label}`);
    expect(shown).toMatch(/█+░*/);
    expect(server!.requests.some((r) => r.range !== undefined)).toBe(true);

    h.press(KEY.enter);
    await h.waitFor((f) => f.includes('Choose a persona'));
    h.press(KEY.enter);
    await h.waitFor((f) => f.includes('Save and start?'));
    h.press(KEY.enter);
    await h.done();
    const loaded = loadConfig({ home, env: {} });
    const installed = path.join(home, 'models', MEDIUM.file);
    expect(loaded.ok && loaded.config).toMatchObject({ provider: 'local', modelPath: installed });
    expect((await fs.readFile(installed)).equals(gguf)).toBe(true);

    // A -p turn on what the wizard configured, offline (the model server is closed).
    await server!.close();
    server = undefined;
    const saved = JSON.parse(await fs.readFile(path.join(home, 'config.json'), 'utf8')) as object;
    const room = { contextSize: 16_384, contextWindow: 16_384 }; // see writeTinyGguf above
    await fs.writeFile(path.join(home, 'config.json'), JSON.stringify({ ...saved, ...room }));
    const turn = runCogito(['-p', 'hello', '--json', '--max-cycles', '1'], { COGITO_HOME: home });
    expect(await turn.code, turn.stderr()).toBe(0);
    expect(turn.stdout()).toContain(`"model":"${MEDIUM.file}"`);
    expect(turn.stdout()).toMatch(/"type":"usage".*"estimated":false/);
  }, 120_000);

  test('Esc cancels the download: nothing configured, the part kept for a resume', async () => {
    h = await open({ body: gguf, stallAfterBytes: 4096 });
    h.press(KEY.enter);
    await h.waitFor((f) => f.includes('4 KB / 520 KB') && f.includes('left'), 'progress');
    h.press(KEY.esc);
    await h.waitFor((f) => f.includes('Cancelled. Nothing was configured'), 'the cancel note');
    expect(h.frame()).toContain('Which model to download');
    expect(await fs.readdir(home)).toEqual(['models']);
    const part = await fs.stat(path.join(home, 'models', `${MEDIUM.file}.part`));
    expect(part.size).toBe(4096);
    // Esc again goes back to the provider list; nothing was saved.
    h.press(KEY.esc);
    await h.waitFor((f) => f.includes('Where should the model run?'));
    expect(h.outcomes).toEqual([]);
  }, 60_000);

  test('a file whose checksum does not match is refused and nothing is kept', async () => {
    h = await open({ body: gguf, sha256: 'ef'.repeat(32) });
    h.press(KEY.enter);
    await h.waitFor((f) => f.includes('The download failed'), 'the failure');
    expect(h.frame()).toContain('SHA-256');
    expect(await fs.readdir(path.join(home, 'models'))).toEqual([]);
  }, 60_000);

  test('a model that does not fit is refused with what it needs', async () => {
    h = await open({ body: gguf });
    h.press(KEY.down, KEY.enter);
    await h.waitFor((f) => f.includes('does not fit on this machine'), 'the refusal');
    expect(h.frame()).toContain('not enough memory: needs ~7.50 GB, this machine has 8.59 GB');
    expect(server!.requests).toEqual([]);
  }, 60_000);
});
