/**
 * Making sure a stdio server's process is gone. The SDK ends a child politely (stdin closed,
 * then SIGTERM, then SIGKILL, four seconds in all), but when a handshake is aborted it starts
 * that close without waiting for it, on timers that do not hold the process open: Cogito can
 * exit first and leave a server that ignores SIGTERM running. This ends it by its pid.
 */
import { isAlive } from '../core/processAlive.js';

/** How long a server gets after SIGTERM before SIGKILL. */
const TERM_GRACE_MS = 1_000;
/** How often to look whether it has gone. */
const POLL_MS = 20;

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

/** Resolves once `pid` is gone or `ms` have passed; whether it is gone. */
async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (isAlive(pid)) {
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return true;
}

/**
 * Ends the process `pid`: SIGTERM, up to `graceMs` to exit, then SIGKILL (and a moment for
 * the kernel to take it). Resolves when it is gone or after that; never throws.
 */
export async function endProcess(pid: number, graceMs = TERM_GRACE_MS): Promise<void> {
  if (!isAlive(pid)) return;
  signal(pid, 'SIGTERM');
  if (await goneWithin(pid, graceMs)) return;
  signal(pid, 'SIGKILL');
  await goneWithin(pid, graceMs);
}
