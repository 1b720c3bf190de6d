import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSystemTools } from '../../../src/tools/system/index.js';
import { appsFromListing, parsePsOutput } from '../../../src/tools/system/macos.js';
import type { Tool } from '../../../src/tools/types.js';
import { errorOf, FIXTURES, okText, tempDir, testContext } from '../web/helpers.js';
import { hostileNames, recordingKill, StubRunner } from './stubs.js';

const fixture = (name: string): Promise<string> =>
  readFile(path.join(FIXTURES, 'system', name), 'utf8');

let dir: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('cogito-mac-'));
});

afterEach(async () => {
  await cleanup();
});

async function macTools(runner: StubRunner, kill = recordingKill()): Promise<Record<string, Tool>> {
  const apps = path.join(dir, 'Applications');
  const userApps = path.join(dir, 'home/Applications');
  for (const bundle of ['Safari.app', 'Visual Studio Code.app', '微信.app', 'Notes.txt'])
    await mkdir(path.join(apps, bundle), { recursive: true });
  await mkdir(path.join(userApps, 'Safari.app'), { recursive: true }); // same name: the first root wins
  await mkdir(path.join(userApps, 'Obsidian.app'), { recursive: true });
  const list = createSystemTools({
    platform: 'darwin',
    runner,
    kill,
    macAppRoots: [apps, path.join(dir, 'missing'), userApps],
  });
  return Object.fromEntries(list.map((tool) => [tool.name, tool]));
}

describe('macOS parsers', () => {
  it('reads .app bundles from a directory listing', async () => {
    const apps = appsFromListing('/Applications', await fixture('macos-applications.txt'));
    expect(apps.map((app) => [app.name, app.target])).toEqual([
      ['Safari', '/Applications/Safari.app'],
      ['Visual Studio Code', '/Applications/Visual Studio Code.app'],
      ['Microsoft Word', '/Applications/Microsoft Word.app'],
      ['Google Chrome', '/Applications/Google Chrome.app'],
      ['微信', '/Applications/微信.app'],
    ]);
  });

  it('parses ps output with spaces in executable paths', async () => {
    const processes = parsePsOutput(`  PID    RSS COMM\n${await fixture('macos-ps.txt')}`);
    expect(processes).toHaveLength(6);
    expect(processes[3]).toEqual({
      pid: 702,
      memoryKb: 331_776,
      name: 'Electron',
      command: '/Applications/Visual Studio Code.app/Contents/MacOS/Electron',
    });
    expect(processes[4]?.name).toBe('Code Helper (Renderer)');
    expect(processes[5]?.name).toBe('-zsh');
  });
});

describe('macOS tools', () => {
  it('lists bundles from every root once', async () => {
    const text = okText(await (await macTools(new StubRunner())).listApps!.run([], testContext()));
    expect(text).toBe('4 apps:\nObsidian\nSafari\nVisual Studio Code\n微信');
  });

  it('opens an app with open -a and the bundle path as one argument', async () => {
    const runner = new StubRunner();
    okText(await (await macTools(runner)).openApp!.run(['visual studio code'], testContext()));
    expect(runner.calls).toEqual([
      {
        kind: 'run',
        file: 'open',
        args: ['-a', path.join(dir, 'Applications/Visual Studio Code.app')],
      },
    ]);
  });

  it('reports open -a failing', async () => {
    const runner = new StubRunner({
      open: { exitCode: 1, stderr: 'Unable to find application named X' },
    });
    const error = errorOf(await (await macTools(runner)).openApp!.run(['Safari'], testContext()));
    expect(error.message).toMatch(/Unable to find application/);
  });

  it('lists processes through ps -axo', async () => {
    const runner = new StubRunner({ ps: { stdout: await fixture('macos-ps.txt') } });
    const text = okText(await (await macTools(runner)).listProcesses!.run([], testContext()));
    expect(runner.calls[0]).toEqual({ kind: 'run', file: 'ps', args: ['-axo', 'pid=,rss=,comm='] });
    expect(text.split('\n')[2]).toBe('    655    403 MB  Safari');
  });

  it('closes every process inside an app bundle', async () => {
    const ps = (await fixture('macos-ps.txt')).replaceAll(
      '/Applications/',
      `${path.join(dir, 'Applications')}/`,
    );
    const kill = recordingKill();
    const text = okText(
      await (
        await macTools(new StubRunner({ ps: { stdout: ps } }), kill)
      ).closeApp!.run(['Visual Studio Code'], testContext()),
    );
    expect(kill.calls).toEqual([
      [702, 'SIGTERM'],
      [703, 'SIGTERM'],
    ]);
    expect(text).toContain('Asked Visual Studio Code to close.');
  });

  it('refuses Finder and signals nothing for hostile names', async () => {
    const kill = recordingKill();
    const tools = await macTools(
      new StubRunner({ ps: { stdout: await fixture('macos-ps.txt') } }),
      kill,
    );
    expect(errorOf(await tools.closeApp!.run(['Finder'], testContext())).kind).toBe('denied');
    const marker = path.join(dir, 'marker');
    for (const name of hostileNames(marker)) {
      expect(errorOf(await tools.closeApp!.run([name], testContext())).kind).toBe('not_found');
      expect(errorOf(await tools.openApp!.run([name], testContext())).kind).toMatch(
        /not_found|invalid_args/,
      );
    }
    expect(kill.calls).toHaveLength(0);
    expect(existsSync(marker)).toBe(false);
  });
});
