/**
 * Start-up must not pay for the web and system tools' libraries: importing the app and
 * building the tool registry leaves cheerio, linkedom, turndown, Readability and execa
 * unloaded, and the first page fetch or command loads them. Runs in a fresh Node process
 * whose ESM loader hook writes down every module URL it loads.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const WATCHED = ['cheerio', 'linkedom', 'turndown', '@mozilla/readability', 'execa'];

/** Registered after tsx's hooks, so it runs first and sees every URL that is loaded. */
const HOOKS = `
import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function load(url, context, next) {
  appendFileSync(log, url + '\\n');
  return next(url, context);
}
`;

const REGISTER = `
import { register } from 'node:module';
register('./hooks.mjs', import.meta.url, { data: { log: process.env.IMPORT_LOG } });
`;

/** Prints which watched packages were loaded after import, and after the tools ran. */
const PROBE = `
import { readFileSync } from 'node:fs';
const src = (file) => new URL(file, ${JSON.stringify(pathToFileURL(`${ROOT}/src/`).href)}).href;
const watched = ${JSON.stringify(WATCHED)};
const loaded = () => {
  const urls = readFileSync(process.env.IMPORT_LOG, 'utf8');
  return watched.filter((name) => urls.includes('/node_modules/' + name + '/'));
};
await import(src('app/createApp.ts'));
// The command line (its background-agent subcommands included) and the notifier a screen
// attaches: a start that never notifies loads none of the tools' libraries either.
await import(src('cli/main.ts'));
const { attachNotifier } = await import(src('notify/attach.ts'));
const { notifySchema } = await import(src('config/notifySchema.ts'));
const config = notifySchema.parse({ command: 'my-notifier --from cogito' });
attachNotifier({ subscribe: () => () => {}, send: () => ({ ok: true }) }, { config });
const { createWebTools } = await import(src('tools/web/index.ts'));
const { createSystemTools } = await import(src('tools/system/index.ts'));
const { createCommandRunner } = await import(src('tools/system/exec.ts'));
const html = '<html><head><title>T</title></head><body><p>' + 'Some words. '.repeat(60) + '</p></body></html>';
const fetch = async () => new Response(html, { headers: { 'content-type': 'text/html' } });
const resolver = async () => [{ address: '93.184.215.14', family: 4 }];
const tools = [...createWebTools({}, { fetch, resolver }), ...createSystemTools()];
const afterImport = loaded();
const ctx = { workspace: {}, signal: new AbortController().signal };
const page = await tools.find((t) => t.name === 'fetchPage').run(['https://site.test/', 'markdown'], ctx);
const command = await createCommandRunner().run(process.execPath, ['-e', 'process.stdout.write("ran")'], ctx);
process.stdout.write(JSON.stringify({ tools: tools.length, afterImport, afterUse: loaded(), page: page.ok, command: command.stdout }));
`;

describe('lazy loading of the tools’ libraries', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cogito-lazy-'));
    await writeFile(path.join(dir, 'hooks.mjs'), HOOKS);
    await writeFile(path.join(dir, 'register.mjs'), REGISTER);
    await writeFile(path.join(dir, 'probe.mjs'), PROBE);
    await writeFile(path.join(dir, 'imports.log'), '');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('imports the app and builds the tools without loading them; first use loads them', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        pathToFileURL(path.join(dir, 'register.mjs')).href,
        path.join(dir, 'probe.mjs'),
      ],
      {
        cwd: ROOT,
        env: { ...process.env, IMPORT_LOG: path.join(dir, 'imports.log') },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(err).toBe('');
    expect(code).toBe(0);
    const result = JSON.parse(out) as {
      tools: number;
      afterImport: string[];
      afterUse: string[];
      page: boolean;
      command: string;
    };
    expect(result.tools).toBe(7);
    expect(result.afterImport).toEqual([]);
    // The positive control: the hook sees the packages, and the tools still work.
    expect(result.page).toBe(true);
    expect(result.command).toBe('ran');
    expect(result.afterUse).toEqual(WATCHED);
  });
});
