import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApp, type AppOptions, type AppResult } from '../../src/app/createApp.js';
import { folderLockFile } from '../../src/history/lock.js';
import { useAppDirs } from '../helpers/appDirs.js';
import { waitUntil } from '../helpers/waitFor.js';

/**
 * createApp is the root of the app: every resource it starts registers its stop on a
 * disposer stack, so a step that fails after the home lock was taken stops what had started
 * and releases the lock, and the result says what went wrong.
 */
describe('createApp: a failing start-up step leaves nothing behind', () => {
  const dirs = useAppDirs('cogito-fail');
  let ws: string;
  let home: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => ({ ws, home, env } = dirs));

  const lock = (): string => folderLockFile(home, realpathSync(ws));

  async function start(extra: Partial<AppOptions> = {}): Promise<AppResult> {
    return createApp({
      flags: { home, workspace: ws, ...extra.flags },
      env,
      initialState: 'AWAITING_INPUT',
      ...extra,
    });
  }

  /** The lock is gone and the home can be opened again by this same process. */
  async function expectHomeFree(): Promise<void> {
    expect(existsSync(lock())).toBe(false);
    const again = await start();
    if (!again.ok) throw new Error(`the home is still held: ${again.message}`);
    expect(existsSync(lock())).toBe(true);
    expect(await again.app.close()).toEqual([]);
    expect(existsSync(lock())).toBe(false);
  }

  it('a provider factory that throws: a clear error, exit code 2, no lock left', async () => {
    const made = await start({
      createProvider: () => {
        throw new Error('modelPath is not a GGUF file');
      },
    });
    expect(made.ok).toBe(false);
    if (made.ok) return;
    expect(made.exitCode).toBe(2);
    expect(made.message).toBe('Cogito could not start: modelPath is not a GGUF file');
    await expectHomeFree();
  });

  it('a change journal that cannot open: its message and the fix, no lock left', async () => {
    // The journal keeps its backups under data/undo/: a file there cannot become a folder.
    await mkdir(path.join(home, 'data'), { recursive: true });
    await writeFile(path.join(home, 'data', 'undo'), 'not a folder');
    const made = await start();
    expect(made.ok).toBe(false);
    if (made.ok) return;
    expect(made.exitCode).toBe(2);
    expect(made.message).toMatch(/^Cannot open the change journal: /);
    expect(made.message).toContain('--home DIR');
    await rm(path.join(home, 'data', 'undo'));
    await expectHomeFree();
  });

  it('the last step failing (a debug log that cannot be made) stops the agent, the session and the lock', async () => {
    await mkdir(path.join(home, 'data'), { recursive: true });
    await writeFile(path.join(home, 'data', 'logs'), 'not a folder');
    const made = await start({ flags: { home, workspace: ws, debug: true } });
    expect(made.ok).toBe(false);
    if (made.ok) return;
    expect(made.exitCode).toBe(2);
    expect(made.message).toMatch(/^Cannot write the debug log: /);
    expect(made.message).toContain('without --debug');
    // Everything is stopped: the home opens again at once, with no warnings.
    const again = await start();
    if (!again.ok) throw new Error(again.message);
    expect(again.app.warnings).toEqual([]);
    await again.app.close();
    expect(existsSync(lock())).toBe(false);
  });

  it('a --session of another workspace refused: the lock is released', async () => {
    const first = await start();
    if (!first.ok) throw new Error(first.message);
    const id = first.app.currentSessionId();
    await first.app.close();
    const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'cogito-fail-ws2-'));
    try {
      const made = await start({ flags: { home, workspace: elsewhere, session: id } });
      expect(made.ok).toBe(false);
      if (!made.ok) expect(made.message).toContain('--force');
      await expectHomeFree();
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it("--session --force of a folder another Cogito works in: refused with its pid, that folder's lock kept", async () => {
    const first = await start();
    if (!first.ok) throw new Error(first.message);
    const id = first.app.currentSessionId();
    await first.app.close();
    const owner = folderLockFile(home, realpathSync(ws));
    const held = `${process.ppid}\n2026-12-01T09:30:00.000Z\n${realpathSync(ws)}\n`;
    await mkdir(path.dirname(owner), { recursive: true });
    await writeFile(owner, held);
    const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'cogito-fail-ws3-'));
    try {
      const flags = { home, workspace: elsewhere, session: id, force: true };
      const made = await start({ flags });
      expect(made.ok).toBe(false);
      if (!made.ok) {
        expect(made.exitCode).toBe(3);
        expect(made.message).toContain(`Another Cogito (pid ${process.ppid}`);
        expect(made.message).toContain(`working in ${realpathSync(ws)}`);
      }
      expect(readFileSync(owner, 'utf8')).toBe(held);
      expect(existsSync(folderLockFile(home, realpathSync(elsewhere)))).toBe(false);
      // Once that Cogito is gone, the session opens here.
      await rm(owner);
      const forced = await start({ flags });
      if (!forced.ok) throw new Error(forced.message);
      expect(forced.app.currentSessionId()).toBe(id);
      expect(await forced.app.close()).toEqual([]);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });
});

describe('createApp: close and the one quit path', () => {
  const dirs = useAppDirs('cogito-quit');
  let ws: string;
  let home: string;
  beforeEach(() => ({ ws, home } = dirs));

  it("/exit calls the root's exit through the agent's host port, until the app is closed", async () => {
    let exits = 0;
    const made = await createApp({
      flags: { home, workspace: ws },
      env: { COGITO_BASE_URL: 'http://127.0.0.1:9/v1' },
      initialState: 'AWAITING_INPUT',
      exit: () => void exits++,
    });
    if (!made.ok) throw new Error(made.message);
    made.app.agent.send({ type: 'command', text: '/exit' });
    await waitUntil(() => exits === 1, 'the root exit');
    expect(await made.app.close()).toEqual([]);
    made.app.agent.send({ type: 'command', text: '/exit' });
    await made.app.agent.idle();
    await Promise.resolve();
    expect(exits).toBe(1);
  });

  it('close is idempotent and releases the lock last', async () => {
    const made = await createApp({
      flags: { home, workspace: ws },
      env: { COGITO_BASE_URL: 'http://127.0.0.1:9/v1' },
    });
    if (!made.ok) throw new Error(made.message);
    expect(existsSync(folderLockFile(home, realpathSync(ws)))).toBe(true);
    const [first, second] = await Promise.all([made.app.close(), made.app.close()]);
    expect(first).toEqual([]);
    expect(second).toBe(first);
    expect(existsSync(folderLockFile(home, realpathSync(ws)))).toBe(false);
  });
});
