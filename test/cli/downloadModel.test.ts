/**
 * `cogito --download-model` end to end, as a child process: a loopback server serves a tiny
 * GGUF (written by the test) through COGITO_MODELS_URL, drops the connection half-way, and
 * the download resumes, is verified, is configured, and a `-p` turn then runs on it with no
 * network but that server (which is closed by then).
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../src/cli/args.js';
import { catalogModel } from '../../src/models/catalog.js';
import { runCogito } from '../helpers/cogitoProcess.js';
import { startModelServer, type ModelServer } from '../helpers/modelServer.js';
import { writeTinyGguf } from '../helpers/tinyGguf.js';

const SMALL = catalogModel('small').file;
const cogito = runCogito;

let dir: string;
let home: string;
let ws: string;
let gguf: Buffer;
let server: ModelServer | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cogito-dlcli-'));
  home = path.join(dir, 'home');
  ws = await mkdtemp(path.join(dir, 'ws-'));
  const file = path.join(dir, 'tiny.gguf');
  // A long trained context: the tiny model's vocabulary is nearly one token per character,
  // so Cogito's system prompt takes ~10k of its tokens (a real model's: ~2.5k).
  await writeTinyGguf(file, { contextLength: 32_768, endsAtOnce: true });
  gguf = await readFile(file);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

describe('cogito --download-model', () => {
  it('downloads with progress, resumes after a drop, configures it, and -p runs on it', async () => {
    server = await startModelServer({
      [SMALL]: { body: gguf, sha256: true, dropAfterBytes: Math.floor(gguf.length / 2) },
    });
    const env = { COGITO_HOME: home, COGITO_MODELS_URL: server.url };
    const dl = cogito(['--download-model', 'small'], env);
    expect(await dl.code, dl.stderr()).toBe(0);
    const err = dl.stderr();
    expect(err).toContain(`Downloading ${catalogModel('small').label}`);
    expect(err).toMatch(/KB \/ \d+ KB 100% · [\d.]+ (KB|MB|B)\/s · 0 s left/);
    expect(err).toContain('SHA-256 verified');
    expect(server.requests.some((r) => r.range?.startsWith('bytes='))).toBe(true);

    const installed = path.join(home, 'models', SMALL);
    expect((await readFile(installed)).equals(gguf)).toBe(true);
    const config = JSON.parse(await readFile(path.join(home, 'config.json'), 'utf8')) as object;
    expect(config).toMatchObject({ provider: 'local', modelPath: installed });

    // Room for the system prompt in the tiny model's character-sized tokens (see above).
    await writeFile(
      path.join(home, 'config.json'),
      JSON.stringify({ ...config, contextSize: 16_384, contextWindow: 16_384 }),
    );
    // Offline from here on: the model server is gone.
    await server.close();
    server = undefined;
    const turn = cogito(
      ['-p', 'hello', '--json', '--max-cycles', '1', '--workspace', ws, '--think-interval', '0'],
      { COGITO_HOME: home },
    );
    expect(await turn.code, turn.stderr()).toBe(0);
    const events = turn
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'settings_changed', model: SMALL }),
    );
    // Counted by the model itself (not estimated): the turn really ran on the local model.
    const usage = events.find((e) => e.type === 'usage') as
      { usage: { promptTokens: number }; estimated: boolean } | undefined;
    expect(usage?.estimated).toBe(false);
    expect(usage?.usage.promptTokens).toBeGreaterThan(1000);
    expect(events).toContainEqual(expect.objectContaining({ type: 'turn_end', outcome: 'ok' }));
  }, 120_000);

  it('rejects a file whose checksum does not match and leaves config.json alone', async () => {
    server = await startModelServer({ [SMALL]: { body: gguf, sha256: 'cd'.repeat(32) } });
    const dl = cogito(['--download-model', 'small'], {
      COGITO_HOME: home,
      COGITO_MODELS_URL: server.url,
    });
    expect(await dl.code).toBe(1);
    expect(dl.stderr()).toContain("the downloaded file's SHA-256 is");
    expect(await readdir(home)).toEqual(['models']);
    expect(await readdir(path.join(home, 'models'))).toEqual([]);
  }, 60_000);

  it('names the choices for an unknown model', async () => {
    const dl = cogito(['--download-model', 'gigantic'], { COGITO_HOME: home });
    expect(await dl.code).toBe(2);
    expect(dl.stderr()).toContain('Use small, medium or large');
  }, 60_000);
});

describe('--download-model on the command line', () => {
  it('takes an optional name; alone it lets the machine decide', () => {
    expect(parseCliArgs(['--download-model']).downloadModel).toBe('');
    expect(parseCliArgs(['--download-model', '--home', '/h'])).toMatchObject({
      downloadModel: '',
      home: '/h',
    });
    expect(parseCliArgs(['--download-model', 'large', '-p', 'hi'])).toMatchObject({
      downloadModel: 'large',
      print: 'hi',
    });
    expect(parseCliArgs(['-p', 'hi']).downloadModel).toBeUndefined();
  });
});
