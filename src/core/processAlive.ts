/**
 * Whether a process runs, the one check everything that outlives a process uses (the folder
 * lock, the background agents' registry, an MCP server's end). A process exists while
 * `kill(pid, 0)` succeeds, or fails with EPERM (another user's). A zombie (exited, not yet
 * reaped by a parent that does not reap, as a container's first process may not) counts as
 * gone: it holds nothing and can do nothing any more.
 */
import fs from 'node:fs';

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  try {
    // /proc/PID/stat: "pid (name) S ...": the state follows the last ')'.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false; // No /proc (macOS): kill(0) is all there is.
  }
}
