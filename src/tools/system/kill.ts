import { ToolFailure } from '../web/errors.js';
import type { KillFn, ProcessInfo } from './types.js';

/**
 * Sends SIGTERM to each process (a polite request: apps may save and exit). A process that
 * is already gone counts as closed; one we may not signal is reported, not hidden.
 */
export function terminateProcesses(processes: readonly ProcessInfo[], kill: KillFn): string {
  const closed: number[] = [];
  const denied: number[] = [];
  for (const { pid } of processes) {
    try {
      kill(pid, 'SIGTERM');
      closed.push(pid);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'ESRCH') closed.push(pid);
      else if (code === 'EPERM') denied.push(pid);
      else throw error;
    }
  }
  if (closed.length === 0) {
    throw new ToolFailure(
      'denied',
      `Not allowed to stop process ${denied.join(', ')}: it belongs to another user.`,
    );
  }
  const note =
    denied.length > 0 ? ` Not allowed to stop ${denied.join(', ')} (another user's).` : '';
  return `Sent SIGTERM to pid ${closed.join(', ')}.${note}`;
}
