/** Reads this machine's profile for the model proposal (memory, threads, free disk). */
import { statfs } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { MachineProfile } from './propose.js';

/** Free bytes on the file system holding `dir` (or its nearest existing parent). */
async function freeDiskBytes(dir: string): Promise<number> {
  let at = path.resolve(dir);
  for (;;) {
    try {
      const s = await statfs(at);
      return s.bavail * s.bsize;
    } catch {
      const parent = path.dirname(at);
      if (parent === at) return 0;
      at = parent;
    }
  }
}

/** The real machine, with free disk measured where `modelsDir` is. */
export async function readMachineProfile(modelsDir: string): Promise<MachineProfile> {
  return {
    totalMemBytes: os.totalmem(),
    freeMemBytes: os.freemem(),
    threads: os.availableParallelism(),
    freeDiskBytes: await freeDiskBytes(modelsDir),
  };
}
