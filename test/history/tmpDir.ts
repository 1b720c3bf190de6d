import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { SessionStore } from '../../src/history/sessionStore.js';

/** A fresh temporary folder and its cleanup. */
export function makeTmpDir(prefix = 'cogito-history-'): { dir: string; cleanup(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A fresh session store in a fresh temporary folder for each test of the calling `describe`
 * (made before each test, removed after it).
 */
export function useTmpSessionStore(): { readonly dir: string; readonly store: SessionStore } {
  let tmp: ReturnType<typeof makeTmpDir> | undefined;
  let store: SessionStore | undefined;
  beforeEach(() => {
    tmp = makeTmpDir();
    store = new SessionStore(tmp.dir);
  });
  afterEach(() => tmp?.cleanup());
  return {
    get dir() {
      return tmp!.dir;
    },
    get store() {
      return store!;
    },
  };
}
