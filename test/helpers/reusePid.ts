/**
 * A stranger process that takes a dead process's pid, on purpose: Linux lets a privileged
 * process set the last pid it handed out (`/proc/sys/kernel/ns_last_pid`), so the next process
 * started gets the one after it. Other processes on the machine may take it first, so it is
 * tried a few times. Where the system does not allow it (not privileged, not Linux, a dead
 * process nobody reaps) the caller gets `undefined` and stages the same situation by naming a
 * stranger's pid in the records.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { waitUntil } from './waitFor.js';

const NS_LAST_PID = '/proc/sys/kernel/ns_last_pid';

/** A detached `sleep` (its own group) with pid `pid`, or undefined if that cannot be arranged. */
export async function spawnStrangerWithPid(pid: number): Promise<ChildProcess | undefined> {
  // A dead process keeps its pid until its parent (here: init) reaps it.
  const reaped = await waitUntil(() => !fs.existsSync(`/proc/${pid}`), 'the pid to be free', {
    timeoutMs: 15_000,
  }).then(
    () => true,
    () => false,
  );
  if (!reaped) return undefined;
  for (let attempt = 0; attempt < 40; attempt += 1) {
    try {
      fs.writeFileSync(NS_LAST_PID, String(pid - 1));
    } catch {
      return undefined;
    }
    const child = strangerProcess();
    if (child.pid === pid) return child;
    child.kill('SIGKILL');
  }
  return undefined;
}

/** A process that is certainly not Cogito: a detached `sleep` leading its own group. */
export function strangerProcess(): ChildProcess {
  return spawn('sleep', ['600'], { detached: true, stdio: 'ignore' });
}
