import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { startScriptedServer, type ScriptedServer } from './scriptedServer.js';

/** A fresh workspace, app home and scripted model server for each test of a describe block. */
export interface AppDirs {
  readonly server: ScriptedServer;
  readonly ws: string;
  readonly home: string;
  /** Points Cogito at the scripted server. */
  readonly env: NodeJS.ProcessEnv;
}

/** Registers the hooks that make and remove the folders and the server around each test. */
export function useAppDirs(prefix: string): AppDirs {
  let current: { server: ScriptedServer; ws: string; home: string } | undefined;
  beforeEach(async () => {
    current = {
      server: await startScriptedServer(),
      ws: await mkdtemp(path.join(os.tmpdir(), `${prefix}-ws-`)),
      home: await mkdtemp(path.join(os.tmpdir(), `${prefix}-home-`)),
    };
  });
  afterEach(async () => {
    const done = current!;
    current = undefined;
    await done.server.close();
    await rm(done.ws, { recursive: true, force: true });
    await rm(done.home, { recursive: true, force: true });
  });
  const now = (): NonNullable<typeof current> => {
    if (!current) throw new Error('useAppDirs: used outside a test');
    return current;
  };
  return {
    get server() {
      return now().server;
    },
    get ws() {
      return now().ws;
    },
    get home() {
      return now().home;
    },
    get env() {
      const { server } = now();
      return { COGITO_API_KEY: 'k', COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' };
    },
  };
}
