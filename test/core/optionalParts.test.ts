/**
 * The optional parts (issue 33.8): the commands the errors name install exactly the versions
 * package.json declares as optional peers (and the tests install as dev dependencies); the
 * clone's install scripts are all reviewed (allowScripts), so npm warns about none.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installCommand, OPTIONAL_PARTS } from '../../src/core/optionalParts.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  optionalDependencies?: Record<string, string>;
  allowScripts: Record<string, boolean>;
};

describe('optional parts', () => {
  const named = Object.values(OPTIONAL_PARTS).flatMap((p) => [...p.packages]);

  it('are the optional peers, at the versions package.json pins, and dev dependencies too', () => {
    const peers = Object.entries(manifest.peerDependencies).map(([n, v]) => `${n}@${v}`);
    expect(named.sort()).toEqual(peers.sort());
    for (const name of Object.keys(manifest.peerDependencies)) {
      expect(manifest.peerDependenciesMeta[name]).toEqual({ optional: true });
      expect(manifest.devDependencies[name]).toBe(manifest.peerDependencies[name]);
      expect(manifest.dependencies[name]).toBeUndefined();
    }
    // Optional dependencies npm would install by default (CUDA builds and all): none.
    expect(manifest.optionalDependencies).toBeUndefined();
  });

  it('name the exact command that adds them', () => {
    expect(installCommand('localModel')).toBe('npm install -g node-llama-cpp@3.21.1');
    expect(installCommand('ocr')).toBe('npm install -g @gutenye/ocr-node@1.4.8 sharp@0.33.5');
  });

  it('every dependency install script is reviewed: none runs, none is warned about', () => {
    expect(manifest.allowScripts).toEqual({
      esbuild: false,
      // Ships prebuilt binaries for every platform; its script only builds when none fits.
      koffi: false,
      'node-llama-cpp': false,
      'onnxruntime-node': false,
      sharp: false,
    });
  });

  it('npm itself finds no unreviewed install script and no unknown config in the clone', async () => {
    // `npm install-scripts ls` is read-only: what `npm install` would warn about, listed.
    const { stdout, stderr } = await promisify(execFile)('npm', ['install-scripts', 'ls'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    });
    expect(stdout).toContain('No packages with unreviewed install scripts');
    expect(stderr).not.toMatch(/Unknown project config|install-scripts/);
  }, 60_000);
});
