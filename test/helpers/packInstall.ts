/**
 * The package as users get it: `npm pack` in a copy of the working tree, then
 * `npm install -g` of the tarball into a temporary prefix with a temporary HOME and install
 * scripts blocked. Shared by the install test and the start-up benchmark.
 *
 * Nothing reaches the internet. npm resolves a global install's dependencies from their
 * registry documents, which the cache `npm ci` fills does not hold, so the install talks to
 * a loopback registry built from package-lock.json that serves the tarballs out of that
 * cache (lockRegistry.ts). node-llama-cpp is withheld, as a registry without it would: it is
 * optional (the local provider loads it on demand), its platform builds are not all in the
 * cache, and a global install must work without it.
 *
 * The pack runs in a copy, so the checkout's own dist/ is never rebuilt by a test.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, readdir, realpath, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { startLockRegistry } from './lockRegistry.js';

const run = promisify(execFile);
const BIG = 16 * 1024 * 1024;

/** The project folder (package.json, package-lock.json, node_modules). */
export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');

export interface GlobalInstall {
  /** Paths inside the tarball, e.g. `dist/cogito.mjs`. */
  tarballFiles: string[];
  /** The `--prefix` it was installed into. */
  prefix: string;
  /** `<prefix>/lib/node_modules/cogito`: the installed package. */
  installed: string;
  /** The `cogito` command npm linked. */
  bin: string;
  /** What `npm install -g` printed, e.g. `added 1 package in 2s`. */
  installLog: string;
  /** The packed tarball, to install again another way. */
  tarball: string;
}

/** A copy of the working tree (tracked and new files, as git sees them) to pack from. */
async function stageCopy(into: string): Promise<void> {
  const { stdout } = await run('git', ['ls-files', '-co', '--exclude-standard', '-z'], {
    cwd: PROJECT_ROOT,
    maxBuffer: BIG,
  });
  for (const file of stdout.split('\0')) {
    if (file === '' || file === 'node_modules') continue;
    const from = path.join(PROJECT_ROOT, file);
    if (!(await stat(from).catch(() => undefined))?.isFile()) continue;
    await mkdir(path.dirname(path.join(into, file)), { recursive: true });
    await cp(from, path.join(into, file));
  }
  // The build (prepack) needs esbuild and the dependencies: the checkout's own install.
  const modules = await realpath(path.join(PROJECT_ROOT, 'node_modules'));
  await symlink(modules, path.join(into, 'node_modules'));
}

/** npm's JSON report of `npm pack --json`, after any output of the prepack script. */
function packReport(stdout: string): { filename: string; files: { path: string }[] } {
  const start = stdout.search(/^\[/m);
  const [report] = JSON.parse(stdout.slice(start)) as {
    filename: string;
    files: { path: string }[];
  }[];
  return report!;
}

/**
 * Packs the working tree and installs the tarball globally under `dir` (which must exist and
 * be empty). `home` is the HOME npm (and later cogito) sees.
 */
export async function packAndInstall(dir: string, home: string): Promise<GlobalInstall> {
  const stage = path.join(dir, 'stage');
  const prefix = path.join(dir, 'prefix');
  for (const d of [stage, prefix]) await mkdir(d, { recursive: true });
  await stageCopy(stage);

  // Nothing from the caller's environment (npm test sets npm_config_* for its own run).
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    USERPROFILE: home,
    npm_config_update_notifier: 'false',
  };
  const packed = await run('npm', ['pack', '--json', '--pack-destination', dir], {
    cwd: stage,
    env,
    maxBuffer: BIG,
  });
  const report = packReport(packed.stdout);

  const tarball = path.join(dir, report.filename);
  const installLog = await installTarball(tarball, prefix, path.join(dir, 'npm-cache'), env, {
    plain: false,
  });
  const windows = process.platform === 'win32';
  return {
    tarballFiles: report.files.map((f) => f.path),
    prefix,
    installed: windows
      ? path.join(prefix, 'node_modules', 'cogito')
      : path.join(prefix, 'lib', 'node_modules', 'cogito'),
    bin: windows ? path.join(prefix, 'cogito.cmd') : path.join(prefix, 'bin', 'cogito'),
    installLog,
    tarball,
  };
}

/**
 * `npm install -g <tarball>` into `prefix` from the loopback registry, with `cache` as npm's
 * cache. Not `plain`: install scripts blocked and optional dependencies left out, as the
 * README's careful install; `plain`: just `npm install -g <tarball>`, as most users type it.
 * Returns what npm printed.
 */
export async function installTarball(
  tarball: string,
  prefix: string,
  cache: string,
  env: NodeJS.ProcessEnv,
  opts: { plain: boolean },
): Promise<string> {
  const { stdout: npmCache } = await run('npm', ['config', 'get', 'cache'], { env: process.env });
  const lock = path.join(PROJECT_ROOT, 'package-lock.json');
  const registry = await startLockRegistry(lock, npmCache.trim(), ['node-llama-cpp']);
  try {
    const installed = await run(
      'npm',
      [
        'install',
        '--global',
        '--prefix',
        prefix,
        '--registry',
        registry.url,
        // A fresh cache: the loopback registry's answers must not land in the real one.
        '--cache',
        cache,
        ...(opts.plain ? [] : ['--ignore-scripts', '--omit=optional']),
        '--no-audit',
        '--no-fund',
        tarball,
      ],
      { env, maxBuffer: BIG },
    );
    return installed.stdout + installed.stderr;
  } finally {
    await registry.close();
  }
}

/** What an install put on disk: its packages (folders with a package.json) and bytes. */
export async function installedSize(
  installed: string,
): Promise<{ packages: number; bytes: number }> {
  let packages = 0;
  let bytes = 0;
  for (const entry of await readdir(installed, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (!entry.isFile()) continue;
    bytes += (await stat(file)).size;
    if (entry.name !== 'package.json') continue;
    // A package's own manifest: its folder sits in node_modules (or in a scope there).
    const up = path.basename(path.dirname(entry.parentPath));
    const up2 = path.basename(path.dirname(path.dirname(entry.parentPath)));
    if (up === 'node_modules' || (up.startsWith('@') && up2 === 'node_modules')) packages++;
  }
  return { packages, bytes };
}
