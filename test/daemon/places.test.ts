/**
 * Where the socket goes: inside the home while the path fits `sun_path`, else a short private
 * folder (recorded in the registry); a short folder another user planted first is refused.
 */
import { chmod, chown, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MAX_SOCKET_PATH_BYTES,
  anyRegistered,
  prepareSocketDir,
  registryFile,
  runDir,
  socketPathFor,
} from '../../src/daemon/places.js';
import { connectAgent } from '../../src/daemon/socketClient.js';
import { startSocketServer } from '../../src/daemon/socketServer.js';
import { createAgentStore } from '../../src/store/agentStore.js';

describe('the socket path', () => {
  let tmp: string;
  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'cogito-places-'));
  });
  afterEach(() => rm(tmp, { recursive: true, force: true }));

  it('stays in the home when it fits', () => {
    const p = socketPathFor('/h', '/w', {});
    expect(p.startsWith(runDir('/h'))).toBe(true);
    expect(p.endsWith('.sock')).toBe(true);
  });

  it('moves a path too long for sun_path to a short private folder, and binds there', async () => {
    const home = path.join(tmp, 'a-very-long-home-folder-name'.repeat(4));
    const runtime = path.join(tmp, 'rt');
    const env = { XDG_RUNTIME_DIR: runtime };
    const p = socketPathFor(home, '/w', env);
    expect(Buffer.byteLength(p)).toBeLessThanOrEqual(MAX_SOCKET_PATH_BYTES);
    expect(path.dirname(p)).toBe(path.join(runtime, 'cogito'));
    // Two homes running the same folder do not share it.
    expect(socketPathFor(`${home}2`, '/w', env)).not.toBe(p);
    const server = await startSocketServer({
      socketPath: p,
      port: {
        send: () => ({ ok: true }),
        snapshot: () => createAgentStore().getState(),
        subscribe: () => () => undefined,
        facts: () => ({ state: 'PAUSED', tokensToday: 0, sessionId: 's' }),
      },
      workspace: '/w',
      started: new Date(),
      onStop: () => undefined,
    });
    try {
      expect((await stat(path.dirname(p))).mode & 0o777).toBe(0o700);
      const c = await connectAgent(p);
      expect(await c.request('status')).toMatchObject({ state: 'PAUSED' });
      c.close();
    } finally {
      await server.close();
    }
  });

  const notRoot = process.getuid?.() !== 0;
  if (notRoot) console.log('skipped: planting a folder as another user needs root');
  it.skipIf(notRoot)('refuses a socket folder another user created first', async () => {
    const planted = path.join(tmp, 'cogito-0');
    await mkdir(planted);
    await chmod(planted, 0o777);
    await chown(planted, 65534, 65534);
    expect(() => prepareSocketDir(path.join(planted, 'x.sock'))).toThrow(
      /is not a folder of this user \(owner uid 65534\)\. Remove it/,
    );
    // Left as it was: judged, not changed.
    expect((await stat(planted)).mode & 0o777).toBe(0o777);
  });
});

describe('whether any agent is registered (the screen skips the lookup when none is)', () => {
  let tmp: string;
  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'cogito-registered-'));
  });
  afterEach(() => rm(tmp, { recursive: true, force: true }));

  it('is false with no run folder or an empty one, true once an entry is there', async () => {
    expect(anyRegistered(tmp)).toBe(false);
    await mkdir(runDir(tmp), { recursive: true });
    expect(anyRegistered(tmp)).toBe(false);
    await writeFile(registryFile(tmp, '/some/folder'), '{}');
    expect(anyRegistered(tmp)).toBe(true);
  });
});
