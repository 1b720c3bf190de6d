/**
 * The package as users get it (test/helpers/packInstall.ts): `npm pack`, then
 * `npm install -g` of the tarball into a temporary prefix, with a temporary HOME and install
 * scripts blocked, without the internet; then the installed `cogito` run for real against
 * the scripted server. Heavy (an install of ~200 packages): it runs in the serial group.
 */
import { mkdir, mkdtemp, readFile, readdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedSize, installTarball, packAndInstall } from '../helpers/packInstall.js';
import { runToEnd, type Done } from '../helpers/runToEnd.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';

/** Every file under `dir` with its size and modification time, to see later writes. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    const info = await stat(file).catch(() => undefined);
    if (info) out.set(path.relative(dir, file), `${info.size}:${info.mtimeMs}`);
  }
  return out;
}

describe('npm pack + npm install -g', () => {
  let dir: string;
  let bin: string;
  let home: string;
  let workspace: string;
  let tarballFiles: string[];
  let server: ScriptedServer;
  let installed: string;
  let prefix: string;
  let before: Map<string, string>;
  let installLog: string;
  let tarball: string;

  /** A clean environment: nothing from the caller's shell but PATH. */
  const baseEnv = (): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    USERPROFILE: home,
    LANG: 'C.UTF-8',
  });

  function cogito(args: string[], extra: NodeJS.ProcessEnv = {}): Promise<Done> {
    return runToEnd(bin, args, { cwd: workspace, env: { ...baseEnv(), ...extra } });
  }

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'cogito-install-')));
    home = path.join(dir, 'home');
    workspace = path.join(dir, 'work');
    for (const d of [home, workspace]) await mkdir(d);
    const install = await packAndInstall(dir, home);
    ({ tarballFiles, installed, bin, installLog, prefix, tarball } = install);
    before = await snapshot(installed);
    server = await startScriptedServer();
  }, 300_000);

  afterAll(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('ships what runs and nothing else: no tests, benches or TypeScript sources', () => {
    expect(tarballFiles).toContain('dist/cogito.mjs');
    expect(tarballFiles).toContain('bin/cogito.js');
    expect(tarballFiles).toContain('personas/assistant.md');
    expect(tarballFiles).toContain('README.md');
    expect(tarballFiles).toContain('LICENSE');
    const stray = tarballFiles.filter(
      (f) => /^(test|bench|src|components|scripts|data)\//.test(f) || /\.tsx?$/.test(f),
    );
    expect(stray).toEqual([]);
  });

  it('declares the PDF reader; OCR and the local model are optional peers npm does not add', async () => {
    const manifest = JSON.parse(await readFile(path.join(installed, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    };
    // pdf.js and its canvas load files and native code from their own folders, and koffi
    // (the idle allocator trim, src/app/mallocTrim.ts) its native part, so they cannot be
    // bundled; OCR (onnxruntime, sharp) and the local-model runtime are optional peers the
    // user adds (README, "Optional parts"). The bundle carries everything else.
    expect(Object.keys(manifest.dependencies ?? {}).sort()).toEqual([
      '@napi-rs/canvas',
      'koffi',
      'pdfjs-dist',
    ]);
    expect(manifest.optionalDependencies).toBeUndefined();
    expect(Object.keys(manifest.peerDependencies ?? {}).sort()).toEqual([
      '@gutenye/ocr-node',
      'node-llama-cpp',
      'sharp',
    ]);
    for (const meta of Object.values(manifest.peerDependenciesMeta ?? {}))
      expect(meta).toEqual({ optional: true });
    expect(installLog).toMatch(/added \d+ packages?\b/);
    const modules = (await readdir(path.join(installed, 'node_modules')).catch(() => [])).filter(
      (m) => !m.startsWith('.'),
    );
    expect(modules).toEqual(expect.arrayContaining(['@napi-rs', 'koffi', 'pdfjs-dist']));
    for (const heavy of ['node-llama-cpp', 'onnxruntime-node', 'sharp', '@gutenye'])
      expect(modules).not.toContain(heavy);
    const top = await readdir(path.join(prefix, 'lib', 'node_modules'));
    expect(top).toEqual(['cogito']);
  });

  it('a plain npm install -g of the tarball: CPU-only, no install-script warnings, counted', async () => {
    const plainPrefix = path.join(dir, 'plain-prefix');
    await mkdir(plainPrefix);
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, USERPROFILE: home };
    const log = await installTarball(tarball, plainPrefix, path.join(dir, 'plain-cache'), env, {
      plain: true,
    });
    // npm 11 names every dependency whose install script it skipped: none has one.
    expect(log).not.toMatch(/install.?scripts?|allowScripts|Unknown project config/i);
    const plainInstalled = path.join(plainPrefix, 'lib', 'node_modules', 'cogito');
    const plainModules = await readdir(path.join(plainInstalled, 'node_modules'));
    for (const heavy of ['node-llama-cpp', '@node-llama-cpp', 'onnxruntime-node', 'sharp'])
      expect(plainModules).not.toContain(heavy);
    const plain = await installedSize(plainInstalled);
    const omitted = await installedSize(installed);
    // Issue 33.8 measured 760 MB (CUDA and Vulkan builds) even with --omit=optional.
    process.stderr.write(
      `install sizes: plain ${plain.packages} packages, ${(plain.bytes / 1e6).toFixed(1)} MB; ` +
        `--omit=optional ${omitted.packages} packages, ${(omitted.bytes / 1e6).toFixed(1)} MB\n`,
    );
    // Cogito alone: the package and the PDF reader with its canvas, far from 760 MB.
    expect(omitted.packages).toBeLessThanOrEqual(plain.packages);
    expect(omitted.bytes).toBeLessThan(150e6);
    expect(plain.bytes).toBeLessThan(200e6);
  }, 300_000);

  it('runs cogito --version from the build, without tsx', async () => {
    const done = await cogito(['--version']);
    expect(done.stderr).toBe('');
    expect(done.stdout).toMatch(/^cogito \d+\.\d+\.\d+\n$/);
    expect(done.code).toBe(0);
    const tsx = await stat(path.join(installed, 'node_modules', 'tsx')).catch(() => undefined);
    expect(tsx).toBeUndefined();
  });

  it('a -p run keeps its history under ~/.cogito (0700) and writes nothing into the package', async () => {
    server.push({ kind: 'stream', content: 'Hello from the installed copy. [WAIT]' });
    const done = await cogito(['-p', 'hello there'], {
      COGITO_BASE_URL: server.url,
      COGITO_API_KEY: 'sk-install-test',
      COGITO_MODEL: 'scripted',
    });
    expect(done.stderr).toBe('');
    expect(done.stdout).toBe('Hello from the installed copy.\n');
    expect(done.code).toBe(0);

    const appHome = path.join(home, '.cogito');
    expect((await stat(appHome)).mode & 0o777).toBe(0o700);
    const sessions = await readdir(path.join(appHome, 'data', 'sessions'));
    expect(sessions).toHaveLength(1);
    const session = path.join(appHome, 'data', 'sessions', sessions[0]!);
    expect(await readFile(path.join(session, 'history.jsonl'), 'utf8')).toContain('hello there');
    const meta = JSON.parse(await readFile(path.join(session, 'meta.json'), 'utf8')) as {
      workspace?: string;
    };
    expect(meta.workspace).toBe(workspace);

    expect(await snapshot(installed)).toEqual(before);
    expect(await stat(path.join(installed, 'data')).catch(() => undefined)).toBeUndefined();
  });

  it('cogito --where names the home in the user folder and the shipped personas', async () => {
    const done = await cogito(['--where']);
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(`home      ${path.join(home, '.cogito')} (an installed copy`);
    expect(done.stdout).toContain(`config    ${path.join(home, '.cogito', 'config.json')}`);
    expect(done.stdout).toContain(`personas  ${path.join(installed, 'personas')} (built in)`);
  });

  it('with no dependency installed, lazily loaded parts run: a page fetched, config.json rewritten', async () => {
    const site = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<html><head><title>Tea</title></head><body><article><h1>Tea</h1>' +
          '<p>Green tea is steamed soon after picking, which keeps it green.</p>'.repeat(5) +
          '</article></body></html>',
      );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const page = `http://127.0.0.1:${(site.address() as AddressInfo).port}/tea`;
    const appHome = path.join(home, '.cogito');
    await mkdir(appHome, { recursive: true, mode: 0o700 });
    // A workspace pinned by an earlier version: removed from the file (write-file-atomic).
    const config = path.join(appHome, 'config.json');
    await writeFile(
      config,
      JSON.stringify({ workspace: dir, fetch: { allowHosts: [new URL(page).host] } }),
    );
    try {
      server.push(
        { kind: 'stream', content: `[TOOL] fetchPage("${page}", "markdown") [/TOOL]` },
        { kind: 'stream', content: 'Fetched. [WAIT]' },
      );
      const done = await cogito(['-p', 'read the page', '--think-interval', '0'], {
        COGITO_BASE_URL: server.url,
        COGITO_API_KEY: 'sk-install-test',
        COGITO_MODEL: 'scripted',
      });
      expect(done.stderr).toMatch(/✓ fetchPage/);
      expect(done.stdout).toBe('Fetched.\n');
      expect(done.code).toBe(0);
      const result = String(server.requests.at(-1)!.body.messages.at(-1).content);
      expect(result).toContain('Green tea is steamed');
      expect(JSON.parse(await readFile(config, 'utf8'))).not.toHaveProperty('workspace');
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });
});
