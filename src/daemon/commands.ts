/**
 * Runs one of the background agent's subcommands (`cogito start|status|stop|service`, and
 * from a shell `send|approve|deny`).
 */
import { runAnswer } from './approveCommand.js';
import type { DaemonCommand } from './commandArgs.js';
import { runBackgroundAgent } from './runAgent.js';
import { runSend } from './sendCommand.js';
import { runService } from './service.js';
import { runStart, type DaemonDeps } from './startCommand.js';
import { runStatus } from './statusCommand.js';
import { runStop } from './stopCommand.js';

/**
 * The subcommand's exit code. A failure nobody foresaw (a home that cannot be written, say)
 * is one line naming it, exit 1, never a stack trace.
 */
export async function runDaemonCommand(cmd: DaemonCommand, io: DaemonDeps): Promise<number> {
  try {
    return await dispatch(cmd, io);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    io.stderr.write(`cogito ${cmd.name}: ${message}\n`);
    return 1;
  }
}

function dispatch(cmd: DaemonCommand, io: DaemonDeps): Promise<number> {
  switch (cmd.name) {
    case 'start':
      return cmd.foreground ? runBackgroundAgent(cmd.flags, io) : runStart(cmd.flags, io);
    case 'status':
      return runStatus(cmd, io);
    case 'stop':
      return runStop(cmd, io);
    case 'service':
      return runService(cmd, io);
    case 'send':
      return runSend(cmd, io);
    case 'approve':
    case 'deny':
      return runAnswer(cmd, io);
  }
}
