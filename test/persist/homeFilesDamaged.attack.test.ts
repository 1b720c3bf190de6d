/**
 * Issue #40, the per-file table for the files outside the session folder, as the attack
 * through the real program: the agent registry entry and the folder locks a killed (-9)
 * background agent left behind, and the user's config.json. Each is cut by 4 bytes, given
 * junk bytes after its end, replaced by a folder, or deleted; then the real program runs.
 * For each: no crash, the damaged original is kept aside byte for byte (a folder whole) with
 * a warning naming the copy (config.json instead is refused with the problem and the fix,
 * and never touched), and the program goes on.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAlive } from '../../src/core/processAlive.js';
import { registryFile } from '../../src/daemon/places.js';
import { listEntries, readEntry } from '../../src/daemon/registry.js';
import { folderLockFile, sharedLockFile } from '../../src/history/lock.js';
import { backgroundFolder, type BackgroundFolder } from '../helpers/backgroundFolder.js';
import { runCogito } from '../helpers/cogitoProcess.js';
import { HOWS, damage } from '../helpers/damageFile.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { waitUntil } from '../helpers/waitFor.js';

/** The copies of `file` kept aside next to it (`<name>.corrupt-<time><ext>`). */
async function copiesOf(file: string): Promise<string[]> {
  const ext = path.extname(file);
  const stem = path.basename(file, ext) + '.corrupt-';
  const names = await readdir(path.dirname(file));
  return names
    .filter((n) => n.startsWith(stem) && n.endsWith(ext))
    .map((n) => path.join(path.dirname(file), n));
}

/** Asserts the one copy of `file` holds `original` (a folder: whole), and the warning names it. */
async function expectKeptAside(
  file: string,
  original: Buffer | 'folder' | undefined,
  warnings: string,
): Promise<void> {
  const copies = await copiesOf(file);
  if (original === undefined) {
    expect(copies).toEqual([]);
    return;
  }
  expect(copies, `a copy of the damaged ${file}`).toHaveLength(1);
  const aside = copies[0]!;
  expect(warnings, 'the warning names the copy').toContain(aside);
  if (original === 'folder') {
    expect((await stat(aside)).isDirectory()).toBe(true);
    expect(await readFile(path.join(aside, 'inside.txt'), 'utf8')).toBe('keep me');
  } else {
    expect(await readFile(aside)).toEqual(original);
  }
}

describe('the files a killed background agent left behind, damaged', () => {
  let f: BackgroundFolder;
  let runtime: string;
  beforeEach(async () => {
    runtime = await realpath(await mkdtemp(path.join(os.tmpdir(), 'cogito-xdg-')));
    // The shared lock place of this test alone, not the user's.
    f = await backgroundFolder(undefined, { XDG_RUNTIME_DIR: runtime });
  });
  afterEach(async () => {
    await f.close();
    await rm(runtime, { recursive: true, force: true });
  });

  /** Starts the real background agent and kills it with -9: its entry and locks stay. */
  const killedAgent = async (): Promise<void> => {
    const entry = await f.startAgent();
    process.kill(-entry.pid, 'SIGKILL');
    await waitUntil(() => !isAlive(entry.pid), 'the killed agent to be gone', 15_000);
  };

  it.each(HOWS)(
    'the agent registry entry %s: status warns with the copy, start runs the agent again',
    async (how) => {
      await killedAgent();
      const file = registryFile(f.home, f.ws);
      const original = await damage(file, how);

      const status = await f.cogito(['status']);
      expect(status.code, status.err).toBe(0);
      await expectKeptAside(file, original, status.err);

      const started = await f.cogito(['start', '--think-interval', '600000']);
      expect(started.code, started.err).toBe(0);
      const entry = readEntry(f.home, f.ws);
      expect(entry, 'the new agent wrote its entry again').toBeDefined();
      expect(isAlive(entry!.pid)).toBe(true);
      expect(listEntries(f.home).map((e) => e.pid)).toEqual([entry!.pid]);
      // The copy is still there, untouched by the new agent's entry.
      await expectKeptAside(file, original, status.err);
    },
    120_000,
  );

  for (const which of ['shared', 'home'] as const) {
    it.each(HOWS)(
      `the ${which} folder lock %s: a -p run warns with the copy and runs`,
      async (how) => {
        await killedAgent();
        const file =
          which === 'shared'
            ? sharedLockFile(f.ws, { XDG_RUNTIME_DIR: runtime })
            : folderLockFile(f.home, f.ws);
        expect(existsSync(file), 'the killed agent left its lock').toBe(true);
        const original = await damage(file, how);

        f.server.push({ kind: 'stream', content: 'Here I am. [WAIT]' });
        const run = await f.cogito(['-p', 'are you there?']);
        expect(run.code, run.err).toBe(0);
        expect(run.out).toContain('Here I am.');
        await expectKeptAside(file, original, run.err);
      },
      120_000,
    );
  }
});

describe('config.json damaged', () => {
  let server: ScriptedServer;
  let tmp: string;
  let ws: string;
  let home: string;
  let env: Record<string, string>;
  const CONFIG = `${JSON.stringify({ language: 'en', watch: { maxWakesPerHour: 0 } }, null, 2)}\n`;

  beforeEach(async () => {
    server = await startScriptedServer();
    tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), 'cogito-cfgdmg-')));
    ws = path.join(tmp, 'ws');
    home = path.join(tmp, 'home');
    await mkdir(ws);
    await mkdir(home);
    await writeFile(path.join(home, 'config.json'), CONFIG, { mode: 0o600 });
    env = {
      COGITO_API_KEY: 'k',
      COGITO_BASE_URL: server.url,
      COGITO_MODEL: 'scripted',
      XDG_RUNTIME_DIR: tmp,
    };
  });
  afterEach(async () => {
    await server.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it.each(HOWS)(
    'config.json %s: refused with the problem and the fix, never written over',
    async (how) => {
      const file = path.join(home, 'config.json');
      const original = await damage(file, how);
      server.push({ kind: 'stream', content: 'Hello. [WAIT]' });
      const run = runCogito(['-p', 'hi', '--workspace', ws, '--home', home], env);
      const code = await run.code;
      const err = run.stderr();
      expect(err).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace: no crash
      if (original === undefined) {
        // Deleted: the defaults (and the environment's model) run.
        expect(code, err).toBe(0);
        expect(run.stdout()).toContain('Hello.');
        return;
      }
      expect(code, err).not.toBe(0);
      expect(code).not.toBeNull();
      expect(err).toContain(file);
      // The problem and the fix.
      expect(err).toMatch(how === 'a folder in its place' ? /folder/ : /JSON/i);
      expect(err).toMatch(/fix|rename|remove|delete|correct|check/i);
      expect(server.requests).toHaveLength(0);
      // Never written over, never moved: the user's file is theirs to fix.
      if (original === 'folder') {
        expect(await readFile(path.join(file, 'inside.txt'), 'utf8')).toBe('keep me');
      } else {
        expect(await readFile(file)).toEqual(original);
      }
      expect(await copiesOf(file)).toEqual([]);
    },
    60_000,
  );
});
