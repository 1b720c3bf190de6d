/**
 * Which process a pid names. A pid alone is not an identity: after a process dies (kill -9,
 * the OOM killer) the kernel hands its pid to the next process that starts, and anything
 * that outlives the process (the folder lock, the background agents' registry) would then
 * trust, or signal, a stranger. So those records also hold the process's start token (its
 * start time as the kernel keeps it), and a pid is the recorded process only while its start
 * token is still the same.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { isAlive } from './processAlive.js';

/**
 * The start token of `pid`: on Linux the boot's id and the start time in clock ticks since
 * boot (`/proc/PID/stat`, field 22), elsewhere the start time `ps` reports. `undefined` when
 * the process does not exist or the system cannot tell (then nothing is verified).
 */
export function processStartToken(pid: number): string | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  if (fs.existsSync('/proc/self/stat')) return linuxToken(pid);
  if (process.platform === 'win32') return undefined;
  try {
    const lstart = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    }).trim();
    return lstart === '' ? undefined : `ps:${lstart}`;
  } catch {
    return undefined;
  }
}

/**
 * Whether the process a record names still runs: `same` (alive, and its start token is the
 * recorded one), `gone` (dead, or its pid now belongs to a process that started later: a
 * stranger, never to be trusted or signalled), or `unverified` (alive, but the record holds no
 * token, as one written by an older Cogito, or this system gives none).
 */
export type ProcessIdentity = 'same' | 'gone' | 'unverified';

export function identify(pid: number, token: string | undefined): ProcessIdentity {
  if (!isAlive(pid)) return 'gone';
  if (token === undefined) return 'unverified';
  const now = processStartToken(pid);
  if (now === undefined) return isAlive(pid) ? 'unverified' : 'gone';
  return now === token ? 'same' : 'gone';
}

function linuxToken(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (name) state ppid …": the name may hold spaces and ')', so fields count from the
    // last ')'. After it come field 3 (state) onwards; the start time is field 22.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = fields[22 - 3];
    if (start === undefined || !/^\d+$/.test(start)) return undefined;
    return `linux:${bootId()}:${start}`;
  } catch {
    return undefined;
  }
}

let boot: string | undefined;

/** The boot's id: start ticks restart at every boot, and a record may outlive one. */
function bootId(): string {
  if (boot !== undefined) return boot;
  try {
    boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    boot = '';
  }
  return boot;
}
