import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A fresh temporary folder and its cleanup. */
export function makeTmpDir(prefix = 'cogito-history-'): { dir: string; cleanup(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
