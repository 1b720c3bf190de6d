/**
 * A state file that could not be written (the reminders, the cycle ledger: disk full,
 * permission denied, read-only) pauses the agent with the reason, as a failed history write
 * does, instead of letting it carry on as if saved (issue #40). A failure inside a turn ends
 * that turn's step with the pause (RESPOND takes it, so a tool chain stops there); one outside
 * a turn, or left when a turn ends (a command's turn, the ledger written at turn_end), pauses
 * at once, before any later listener hears that the turn ended.
 */
import type { AgentEvent } from '../api/events.js';
import { t, type Lang } from '../i18n/messages.js';
import { can, type MachineEvent, type MachineState } from '../machine/machine.js';

export interface WriteFailureDeps {
  state(): MachineState;
  move(event: MachineEvent, reason?: string): void;
  notice(text: string): void;
  lang(): Lang;
}

export class WriteFailures {
  private inTurn = false;
  private pending: string | undefined;

  constructor(private readonly deps: WriteFailureDeps) {}

  /** The agent's events, heard before any other listener's. */
  readonly see = (e: AgentEvent): void => {
    if (e.type === 'turn_start') {
      this.inTurn = true;
      this.pending = undefined;
    } else if (e.type === 'turn_end') {
      this.inTurn = false;
      const left = this.take();
      if (left !== undefined) this.pauseNow(left);
    }
  };

  /** A write failed: `problem` names the file, the problem and the fix. */
  report(problem: string): void {
    if (this.inTurn) this.pending = problem;
    else this.pauseNow(problem);
  }

  /** The failure the running step must pause for, once. */
  take(): string | undefined {
    const problem = this.pending;
    this.pending = undefined;
    return problem;
  }

  private pauseNow(problem: string): void {
    const reason = t(this.deps.lang(), 'pause.stateWrite', { error: problem });
    // Waiting for the user is no state a limit pauses from (a user's interrupt there stands
    // against a turn's late verdict): pause first, then say why, in the same moment.
    if (this.deps.state() === 'AWAITING_INPUT') this.deps.move('PAUSE');
    if (can(this.deps.state(), 'AUTO_PAUSE')) this.deps.move('AUTO_PAUSE', reason);
    this.deps.notice(reason);
  }
}
