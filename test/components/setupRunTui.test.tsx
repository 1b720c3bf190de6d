/**
 * runTui with the wizard in front: first run shows it in the alternate screen, saving goes
 * on into the app with the saved config, quitting exits 0 with nothing written. The config
 * check is the real one against a temp home; the app itself is the fake controller.
 */
import { EventEmitter } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { runTui, type TuiApp, type TuiDeps } from '../../components/runTui.js';
import { ENTER_ALT_SCREEN, LEAVE_ALT_SCREEN } from '../../components/terminal/terminalGuard.js';
import type { CliFlags } from '../../src/cli/args.js';
import { loadConfig } from '../../src/config/load.js';
import { prepareSetup } from '../../src/setup/prepare.js';
import { createSetupServices } from '../../src/setup/services.js';
import { NO_FLAGS } from '../helpers/cliFlags.js';
import { createFakeController } from '../helpers/fakeController.js';
import { FakeStderr, FakeStdin, FakeStdout } from '../helpers/fakeTerminal.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { waitFor } from '../helpers/waitForFrame.js';

const flags = NO_FLAGS;

let tmp: string;
let home: string;
let server: ScriptedServer;
beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'cogito-runtui-setup-'));
  home = path.join(tmp, 'home');
  await fs.mkdir(home);
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

const count = (haystack: string, needle: string): number => haystack.split(needle).length - 1;

function start(opts: { tty?: boolean; flags?: Partial<CliFlags> } = {}) {
  const log: { stream: 'stdout' | 'stderr'; data: string }[] = [];
  const stdin = new FakeStdin({ isTTY: opts.tty ?? true });
  const stdout = new FakeStdout(log, { isTTY: opts.tty ?? true });
  const stderr = new FakeStderr(log);
  const proc = new EventEmitter();
  const env = { COGITO_HOME: home, LANG: 'en_US.UTF-8' };
  const created: { configExisted: boolean; rawMode: boolean }[] = [];
  const c = createFakeController({ machine: 'AWAITING_INPUT' });
  const port = Number(new URL(server.url).port);
  const deps: TuiDeps = {
    prepareSetup: (f, e) => prepareSetup({ flags: f, env: e, cwd: tmp }),
    setupServices: (plan) =>
      createSetupServices({ home: plan.home, detect: { ports: { ollama: port } } }),
    createApp: async () => {
      const loaded = loadConfig({ env, cwd: tmp });
      // Raw mode still on while the app is built: keys typed now must not echo on the screen.
      created.push({ configExisted: loaded.ok && loaded.exists, rawMode: stdin.rawMode });
      const agent = c;
      const app: TuiApp = {
        agent,
        config: { workspace: tmp, language: loaded.ok ? loaded.config.language : 'en' },
        warnings: [],
        close: async () => undefined,
      };
      return { ok: true, app };
    },
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WritableStream,
    env,
    proc,
  };
  const run = runTui({ ...flags, ...opts.flags }, deps);
  const press = (...keys: string[]): void => keys.forEach((k) => stdin.write(k));
  const screen = (): string => stdout.text();
  const until = (text: string): Promise<void> =>
    waitFor(() => screen().includes(text), `"${text}" on screen`);
  return { run, press, screen, until, stdout, stderr, proc, created, c };
}

describe('runTui and the setup wizard', () => {
  test('first run: the wizard, then the app with the saved config, in one alternate screen', async () => {
    const r = start();
    await r.until('Welcome to Cogito');
    r.press('\r');
    await r.until('running here');
    r.press('\r');
    await r.until('› scripted-model');
    r.press('\r');
    await r.until('Connected.');
    r.press('\r');
    await r.until('Choose a persona');
    r.press('\r');
    await r.until('Save and start?');
    // The last step says what a forgotten session may spend a day.
    await r.until('Daily token budget: 2,000,000 tokens (tokenBudgetPerDay');
    expect(r.created).toEqual([]);
    r.press('\r');
    await r.until('Your turn');
    await r.until(`Saved to ${path.join(home, 'config.json')}`);
    expect(r.created).toEqual([{ configExisted: true, rawMode: true }]);
    r.press('\x03');
    expect(await r.run).toBe(0);
    const out = r.screen();
    expect(count(out, ENTER_ALT_SCREEN)).toBe(1);
    expect(count(out, LEAVE_ALT_SCREEN)).toBe(1);
    expect(r.proc.listenerCount('SIGTERM')).toBe(0);
    const loaded = loadConfig({ home, env: {} });
    expect(loaded.ok && loaded.config.baseURL).toBe(server.url);
  });

  test('quitting the wizard exits 0, writes nothing and never builds the app', async () => {
    const r = start();
    await r.until('Welcome to Cogito');
    r.press('\r');
    await r.until('running here');
    r.press('\x03');
    expect(await r.run).toBe(0);
    expect(await fs.readdir(home)).toEqual([]);
    expect(r.created).toEqual([]);
    expect(count(r.screen(), LEAVE_ALT_SCREEN)).toBe(1);
  });

  test('an existing config skips the wizard; --setup brings it back', async () => {
    await fs.writeFile(path.join(home, 'config.json'), '{}');
    const skip = start();
    await skip.until('Your turn');
    expect(skip.screen()).not.toContain('Welcome to Cogito');
    skip.press('\x03');
    expect(await skip.run).toBe(0);

    const again = start({ flags: { setup: true } });
    await again.until('Welcome to Cogito');
    again.press('\x03');
    expect(await again.run).toBe(0);
    expect(await fs.readFile(path.join(home, 'config.json'), 'utf8')).toBe('{}');
  });

  test('a signal during the wizard restores the terminal once', async () => {
    const r = start();
    await r.until('Welcome to Cogito');
    r.proc.emit('SIGTERM');
    expect(await r.run).toBe(143);
    expect(count(r.screen(), LEAVE_ALT_SCREEN)).toBe(1);
    expect(await fs.readdir(home)).toEqual([]);
  });

  test('without a terminal, first run says so and writes nothing', async () => {
    const r = start({ tty: false });
    expect(await r.run).toBe(2);
    expect(r.stderr.text()).toContain('needs a terminal');
    expect(r.screen()).toBe('');
    expect(await fs.readdir(home)).toEqual([]);
  });
});
