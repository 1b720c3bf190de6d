/** The setup wizard's connection test for a local GGUF file: `checkModelFile`. */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkModelFile,
  inspectModelFile,
  resolveModelPath,
} from '../../src/providers/local/modelFile.js';
import { writeTinyGguf } from '../helpers/tinyGguf.js';

let dir: string;
let modelPath: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cogito-gguf-'));
  modelPath = path.join(dir, 'tiny.gguf');
  await writeTinyGguf(modelPath, { name: 'tiny test model' });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('checkModelFile', () => {
  it('loads a valid GGUF once and describes it', async () => {
    const check = await checkModelFile(modelPath, { gpu: 'off' });
    expect(check).toEqual({
      ok: true,
      info: {
        path: modelPath,
        sizeBytes: expect.any(Number),
        architecture: 'llama',
        name: 'tiny test model',
        trainContextSize: 4096,
      },
    });
  });

  it('names a missing file and how to get a model', async () => {
    const missing = path.join(dir, 'nope.gguf');
    const check = await checkModelFile(missing, { gpu: 'off' });
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.error.kind).toBe('not_found');
    expect(check.error.message).toContain(missing);
    expect(check.error.message).toContain('docs/LOCAL.md');
  });

  it('rejects a folder, an empty path and a file without the GGUF magic', async () => {
    const folder = path.join(dir, 'models');
    await mkdir(folder);
    const folderCheck = await checkModelFile(folder);
    expect(!folderCheck.ok && folderCheck.error.message).toContain('is a folder');

    const empty = await checkModelFile('  ');
    expect(!empty.ok && empty.error.message).toContain('"modelPath"');

    const html = path.join(dir, 'download.gguf');
    await writeFile(html, '<!doctype html><title>404</title>');
    const htmlCheck = await checkModelFile(html);
    expect(!htmlCheck.ok && htmlCheck.error.message).toContain('is not a GGUF model');

    const tiny = path.join(dir, 'short.gguf');
    await writeFile(tiny, 'GG');
    const shortCheck = await checkModelFile(tiny);
    expect(!shortCheck.ok && shortCheck.error.message).toContain('is not a GGUF model');
  });

  it('reports a truncated GGUF as a failed load', async () => {
    const whole = await readFile(modelPath);
    const cut = path.join(dir, 'cut.gguf');
    await writeFile(cut, whole.subarray(0, 2000));
    const check = await checkModelFile(cut, { gpu: 'off' });
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.error.message).toMatch(/could not load the model .*cut\.gguf/);
  });

  it('reports a runtime that cannot load as unavailable, without touching the file', async () => {
    const check = await checkModelFile(modelPath, {
      loader: async () => {
        throw new Error('GLIBC_2.38 not found');
      },
    });
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.error.kind).toBe('unavailable');
    expect(check.error.message).toContain('GLIBC_2.38');
    expect(check.error.message).toContain('npm install');
  });
});

describe('inspectModelFile and resolveModelPath', () => {
  it('checks the magic without loading anything', async () => {
    const ok = await inspectModelFile(modelPath);
    expect(ok).toMatchObject({ ok: true, path: modelPath });
  });

  it('expands ~ and resolves relative paths', () => {
    const home = os.homedir();
    expect(resolveModelPath('~/models/a.gguf')).toBe(path.join(home, 'models', 'a.gguf'));
    expect(resolveModelPath('a.gguf')).toBe(path.resolve('a.gguf'));
  });
});
