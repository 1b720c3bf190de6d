/** Processes on this machine, read from /proc: proof that a command left nothing behind. */
import { readFileSync, readdirSync } from 'node:fs';

/** Host pids of processes whose command line holds `marker` (this process aside). */
export function pidsWith(marker: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (cmd.includes(marker) && Number(name) !== process.pid) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
