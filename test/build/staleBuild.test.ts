/**
 * A checkout never runs stale code or its slow path silently: `bin/cogito.js` runs the build
 * while it matches the sources by content, rebuilds it first (saying so) when it does not,
 * and runs the sources only when the rebuild fails, with a line that says so. Each case is
 * a real process on a small checkout made in a temporary folder: the real `bin/cogito.js`
 * and `scripts/`, a `.git` folder, the project's node_modules, and a program whose two
 * entries print where they run from.
 */
import { cp, mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkoutBuild } from '../../scripts/checkoutBuild.mjs';
import { runToEnd, type Done } from '../helpers/runToEnd.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

function cogito(root: string): Promise<Done> {
  return runToEnd(process.execPath, [path.join(root, 'bin/cogito.js')], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
  });
}

/** The program's entry: prints its words and whether it runs as the bundle. */
const entry = (words: string): string =>
  `import { words } from '../src/words.js';\nconsole.log(words, import.meta.url.endsWith('.mjs') ? 'from the build' : 'from the sources');\nvoid ${JSON.stringify(words)};\n`;

describe('a checkout whose build is stale', () => {
  let root: string;

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'cogito-stale-'));
    await mkdir(path.join(root, '.git'));
    await mkdir(path.join(root, 'bin'));
    await mkdir(path.join(root, 'src/documents'), { recursive: true });
    await cp(path.join(ROOT, 'bin/cogito.js'), path.join(root, 'bin/cogito.js'));
    await cp(path.join(ROOT, 'bin/v8Flags.js'), path.join(root, 'bin/v8Flags.js'));
    await cp(path.join(ROOT, 'scripts'), path.join(root, 'scripts'), { recursive: true });
    await symlink(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'));
    await writeFile(path.join(root, 'package.json'), '{ "type": "module", "version": "0.0.0" }\n');
    await writeFile(path.join(root, 'bin/cogito.ts'), entry('hello'));
    await writeFile(path.join(root, 'src/words.ts'), "export const words = 'first words';\n");
    await writeFile(path.join(root, 'src/documents/worker.ts'), 'export {};\n');
    const made = await cogito(root);
    expect(made.stderr).toMatch(/there is no build in dist\/; rebuilding/);
    expect(made.stdout).toBe('first words from the build\n');
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('runs the build silently while the sources match it, even when their times changed', async () => {
    const again = await cogito(root);
    expect(again).toEqual({ code: 0, stdout: 'first words from the build\n', stderr: '' });
    // A pull or checkout that rewrites a file with the same bytes: newer time, same content.
    const later = new Date(Date.now() + 60_000);
    await utimes(path.join(root, 'src/words.ts'), later, later);
    const touched = await cogito(root);
    expect(touched).toEqual({ code: 0, stdout: 'first words from the build\n', stderr: '' });
  });

  it('rebuilds once, saying so, when a source changed; then runs the new build', async () => {
    await writeFile(path.join(root, 'src/words.ts'), "export const words = 'new words';\n");
    const first = await cogito(root);
    expect(first.stderr).toMatch(/the sources changed since the build \(src\/words\.ts/);
    expect(first.stderr).toMatch(/rebuilt in \d+ ms/);
    expect(first.stdout).toBe('new words from the build\n');
    const second = await cogito(root);
    expect(second).toEqual({ code: 0, stdout: 'new words from the build\n', stderr: '' });
  });

  it.runIf(process.platform === 'linux')(
    'rebuilds in a process of its own: the program it then runs holds no bundler',
    async () => {
      // The program lists what runs under it: esbuild's service process, had the bundler
      // been loaded into it (with the ~40 MB of output it returns, kept for the session).
      await writeFile(
        path.join(root, 'bin/cogito.ts'),
        `${entry('probe')}import { readdirSync, readFileSync } from 'node:fs';\n` +
          `const mine = readdirSync('/proc').filter((p) => /^\\d+$/.test(p)).filter((p) => { try { return readFileSync('/proc/' + p + '/stat', 'utf8').split(') ')[1].split(' ')[1] === String(process.pid); } catch { return false; } });\n` +
          `console.log('children', mine.map((p) => readFileSync('/proc/' + p + '/comm', 'utf8').trim()).join(','));\n`,
      );
      const run = await cogito(root);
      expect(run.stderr).toMatch(/rebuilt in \d+ ms/);
      expect(run.stdout).toBe('first words from the build\nchildren \n');
    },
  );

  it('runs the sources only with a line saying the rebuild failed and why', async () => {
    // esbuild cannot resolve the import; tsx never reaches it, so the sources still run.
    await writeFile(
      path.join(root, 'bin/cogito.ts'),
      `${entry('hello')}if (process.env.NEVER_SET_HERE) await import('./missing.js');\n`,
    );
    const run = await cogito(root);
    expect(run.stderr).toMatch(
      /the rebuild failed \(.*Could not resolve "\.\/missing\.js".*\); running the TypeScript sources/,
    );
    expect(run.stderr).toMatch(/npm run build/);
    expect(run.stdout).toBe('first words from the sources\n');
  });

  it('builds once when two starts find it stale at the same moment', async () => {
    await writeFile(path.join(root, 'src/words.ts'), "export const words = 'raced';\n");
    let builds = 0;
    const build = async (): Promise<void> => {
      builds++;
      const { build: real } = (await import(path.join(root, 'scripts/build.mjs'))) as {
        build: () => Promise<unknown>;
      };
      await real();
    };
    const said: string[] = [];
    const stderr = { write: (text: string) => said.push(text) };
    const [a, b] = await Promise.all([
      checkoutBuild(root, { stderr, build }),
      checkoutBuild(root, { stderr, build }),
    ]);
    expect(builds).toBe(1);
    expect(a).toBe(path.join(root, 'dist/cogito.mjs'));
    expect(b).toBe(a);
    expect(said.join('')).toMatch(/another cogito is rebuilding this checkout; waiting/);
    const manifest = JSON.parse(await readFile(path.join(root, 'dist/build.json'), 'utf8')) as {
      inputsHash: string;
    };
    expect(manifest.inputsHash).toMatch(/^[0-9a-f]{64}$/);
  });
});
