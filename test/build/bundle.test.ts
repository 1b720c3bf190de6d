/**
 * The production build (`scripts/build.mjs`) produces a program that works: it is built into
 * a throwaway folder (never `dist/`, so no test depends on or disturbs the real build) and
 * run for `--version`, a print-mode turn whose model fetches a page as Markdown (the web
 * tools' lazily loaded cheerio, linkedom, Readability and turndown, bundled), and a probe
 * entry that runs a command through the lazily loaded execa.
 */
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToEnd, type Done } from '../helpers/runToEnd.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

function run(args: string[], env: Record<string, string> = {}): Promise<Done> {
  return runToEnd(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
}

const ARTICLE = `<!doctype html><html><head><title>Tea notes</title></head><body>
<nav><a href="/">Home</a></nav>
<article><h1>Tea notes</h1>
${'<p>Green tea is steamed or pan-fired soon after picking, which keeps its leaves green and its taste fresh. </p>'.repeat(6)}
<ul><li>Sencha</li><li>Longjing</li></ul></article>
<footer>© tea</footer></body></html>`;

/**
 * The files a module of the bundle loads before it runs: itself and, transitively, what it
 * imports statically (`import … from "./x.mjs"`; an `import()` is loaded on first use).
 */
async function staticClosure(file: string): Promise<string[]> {
  const seen = new Set<string>();
  const visit = async (f: string): Promise<void> => {
    if (seen.has(f)) return;
    seen.add(f);
    const src = await readFile(f, 'utf8');
    for (const m of src.matchAll(/(?:^|[;\n}])\s*import\s*(?:[\w${},*\s]+from\s*)?"(\.[^"]+)"/g))
      await visit(path.resolve(path.dirname(f), m[1]!));
  };
  await visit(file);
  return [...seen];
}

/** The sources (project files and packages) that went into these bundle files. */
async function sourcesOf(files: string[]): Promise<string[]> {
  const all: string[] = [];
  for (const f of files) {
    const map = JSON.parse(await readFile(`${f}.map`, 'utf8')) as { sources: string[] };
    all.push(...map.sources);
  }
  return all;
}

const PROBE = (root: string): string => `
import { createCommandRunner } from ${JSON.stringify(path.join(root, 'src/tools/system/exec.ts'))};
const signal = new AbortController().signal;
const result = await createCommandRunner().run(process.execPath, ['-e', 'process.stdout.write("ran")'], { signal });
process.stdout.write(JSON.stringify({ stdout: result.stdout, exitCode: result.exitCode, env: process.env.NODE_ENV }));
`;

describe('the production build', () => {
  let dir: string;
  let out: string;
  let built: Done;

  beforeAll(async () => {
    // Inside the project, so the bundle finds node_modules (external packages) and
    // package.json (the version) the way dist/ does; node_modules/ is ignored everywhere.
    const cache = path.join(ROOT, 'node_modules', '.cache');
    await mkdir(cache, { recursive: true });
    dir = await mkdtemp(path.join(cache, 'cogito-build-test-'));
    out = path.join(dir, 'out');
    await writeFile(path.join(dir, 'probe.mjs'), PROBE(ROOT));
    built = await run([
      'scripts/build.mjs',
      '--outdir',
      out,
      '--entry',
      'cogito=bin/cogito.ts',
      '--entry',
      'documents-worker=src/documents/worker.ts',
      '--entry',
      `probe=${path.join(dir, 'probe.mjs')}`,
    ]);
    // esbuild on two shared cores: tens of seconds when the machine is busy.
  }, 180_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps our own code ASCII: V8 then holds each module source at one byte a character', async () => {
    // One character past ASCII anywhere in a chunk makes V8 keep that chunk's whole source
    // (hundreds of KB, alive as long as the program) at two bytes a character. esbuild
    // escapes strings but not regular expressions: write those as \uXXXX.
    expect(built.code).toBe(0);
    const chunks = (await readdir(path.join(out, 'chunks'))).filter((f) => f.endsWith('.mjs'));
    const found: string[] = [];
    for (const file of [...chunks.map((f) => path.join('chunks', f)), 'cogito.mjs']) {
      const code = await readFile(path.join(out, file), 'utf8');
      if (!/[\u0080-\uffff]/.test(code)) continue;
      const map = new SourceMapConsumer(
        JSON.parse(await readFile(path.join(out, `${file}.map`), 'utf8')) as RawSourceMap,
      );
      code.split('\n').forEach((line, i) => {
        for (const m of line.matchAll(/[\u0080-\uffff]/g)) {
          const at = map.originalPositionFor({ line: i + 1, column: m.index });
          // Third-party code is what it is; ours is under src/, components/ and bin/.
          if (
            at.source &&
            /(^|\/)(src|components|bin)\//.test(at.source) &&
            !at.source.includes('node_modules')
          ) {
            found.push(`${at.source.replace(/^(\.\.\/)+/, '')}:${at.line} ${m[0]}`);
          }
        }
      });
    }
    expect([...new Set(found)]).toEqual([]);
  });

  it('bundles the entry into one file plus chunks, and lists the sources it read', async () => {
    expect(built.stderr).toBe('');
    expect(built.code).toBe(0);
    expect((await readdir(out)).sort()).toEqual(
      expect.arrayContaining([
        'build.json',
        'chunks',
        'cogito.mjs',
        'documents-worker.mjs',
        'probe.mjs',
      ]),
    );
    const manifest = JSON.parse(await readFile(path.join(out, 'build.json'), 'utf8')) as {
      sourcesAt: number;
      inputs: string[];
      packages: string[];
    };
    expect(manifest.inputs).toEqual(
      expect.arrayContaining(['bin/cogito.ts', 'src/cli/main.ts', 'components/runTui.tsx']),
    );
    expect(manifest.inputs.some((file) => file.includes('node_modules'))).toBe(false);
    // A dependency change without a rebuild (`npm install <pkg>`) must mark it stale too.
    expect(manifest.packages).toEqual(
      expect.arrayContaining(['package.json', 'package-lock.json']),
    );
    expect(manifest.sourcesAt).toBeLessThanOrEqual(Date.now());
  });

  it('prints the version', async () => {
    const done = await run([path.join(out, 'cogito.mjs'), '--version']);
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/^cogito \d+\.\d+\.\d+/);
  });

  it('runs a print-mode turn that fetches a page as Markdown', async () => {
    const site = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(ARTICLE);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const page = `http://127.0.0.1:${(site.address() as AddressInfo).port}/tea`;
    const server: ScriptedServer = await startScriptedServer();
    const ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-build-ws-'));
    const home = await mkdtemp(path.join(os.tmpdir(), 'cogito-build-home-'));
    // The page is on 127.0.0.1, which web tools reach only when the user allows the host.
    const host = new URL(page).host;
    await writeFile(
      path.join(home, 'config.json'),
      JSON.stringify({ fetch: { allowHosts: [host] } }),
    );
    try {
      server.push(
        { kind: 'stream', content: `Reading.\n[TOOL] fetchPage("${page}", "markdown") [/TOOL]` },
        { kind: 'stream', content: 'Done. [WAIT]' },
      );
      const done = await run(
        [
          path.join(out, 'cogito.mjs'),
          '-p',
          'read it',
          '--think-interval',
          '0',
          '--workspace',
          ws,
          '--home',
          home,
        ],
        { COGITO_API_KEY: 'sk-test', COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' },
      );
      // Tool progress goes to stderr in print mode; the reply alone to stdout.
      expect(done.stderr).toMatch(/✓ fetchPage/);
      expect(done.stderr).not.toMatch(/error|warning/i);
      expect(done.code).toBe(0);
      expect(done.stdout).toMatch(/Done\.\n$/);
      const result = String(server.requests[1]!.body.messages.at(-1).content);
      expect(result).toContain('Title: Tea notes');
      expect(result).toContain('Green tea is steamed');
      expect(result).toMatch(/^-\s+Sencha$/m);
    } finally {
      await server.close();
      await new Promise((resolve) => site.close(resolve));
      await rm(ws, { recursive: true, force: true });
      await rm(home, { recursive: true, force: true });
    }
  });

  it('reads a local document in the bundled extraction process (documents-worker.mjs)', async () => {
    const server: ScriptedServer = await startScriptedServer();
    const ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-build-ws-'));
    const home = await mkdtemp(path.join(os.tmpdir(), 'cogito-build-home-'));
    await writeFile(path.join(ws, 'tea.html'), ARTICLE);
    try {
      server.push(
        { kind: 'stream', content: 'Reading.\n[TOOL] read("tea.html") [/TOOL]' },
        { kind: 'stream', content: 'Done. [WAIT]' },
      );
      const done = await run(
        [path.join(out, 'cogito.mjs'), '-p', 'read it', '--workspace', ws, '--home', home],
        { COGITO_API_KEY: 'sk-test', COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' },
      );
      expect(done.stderr).toMatch(/✓ read/);
      expect(done.code).toBe(0);
      const result = String(server.requests[1]!.body.messages.at(-1).content);
      expect(result).toContain('tea.html · HTML page');
      expect(result).toContain('Green tea is steamed');
    } finally {
      await server.close();
      await rm(ws, { recursive: true, force: true });
      await rm(home, { recursive: true, force: true });
    }
  });

  it('runs a command through execa, with NODE_ENV defined as production', async () => {
    const done = await run([path.join(out, 'probe.mjs')]);
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toEqual({ stdout: 'ran', exitCode: 0, env: 'production' });
  });

  it('loads for the first frame neither openai, zod, the command table nor the setup wizard', async () => {
    const entry = path.join(out, 'cogito.mjs');
    const entrySources = await sourcesOf(await staticClosure(entry));
    // --version, --help and print mode's start: no screen, no provider client, no schemas.
    for (const heavy of ['/react/', '/ink/', '/openai/', '/zod/'])
      expect(entrySources.filter((s) => s.includes(heavy))).toEqual([]);
    // The screen's chunk and what it imports statically: what runs before the first frame.
    const screen = /import\("\.\/(chunks\/runTui-[\w-]+\.mjs)"\)/.exec(
      await readFile(entry, 'utf8'),
    )?.[1];
    expect(screen).toBeDefined();
    const screenSources = await sourcesOf(await staticClosure(path.join(out, screen!)));
    expect(screenSources.some((s) => s.includes('/ink/'))).toBe(true);
    for (const lazy of [
      '/openai/',
      '/zod/',
      'src/commands/builtin.ts',
      'components/setup/',
      'src/app/createApp.ts',
      'src/config/schema.ts',
    ])
      expect(screenSources.filter((s) => s.includes(lazy))).toEqual([]);
  });
});
