/** Resident memory of a process, read from /proc (Linux). */
import fs from 'node:fs';

/** VmRSS of `pid` in bytes, or NaN when it cannot be read (not Linux, or the process ended). */
export function rssOf(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** MB with one decimal. */
export function mb(bytes: number): number {
  return Math.round((bytes / 1024 / 1024) * 10) / 10;
}
