import type { AgentEvent } from '../api/events.js';
import type { TurnTrigger } from '../api/trace.js';
import type { MachineEvent, MachineState } from '../machine/machine.js';
import type { AlwaysOn } from './alwaysOn.js';

/** The reason a look the open question allowed gives the floor back with. */
export const BACK_TO_WAITING = 'the question stays open';

/** What the wait watch reads and moves, handed over by the agent. */
export interface WaitWatchDeps {
  state(): MachineState;
  move(event: MachineEvent, reason?: string): void;
  alwaysOn: Pick<AlwaysOn, 'question' | 'pendingChanges'>;
}

/**
 * Follows the agent's turns to keep its open question (the turn asks it at its [WAIT]): a look
 * that ran while an autonomous question watches the workspace and ended plainly gives the
 * floor back to the user, since the question is still theirs to answer (unless more changes
 * wait: the next look comes first); another session closes it.
 */
export class WaitWatch {
  private trigger: TurnTrigger | undefined;

  constructor(private readonly p: WaitWatchDeps) {}

  see(event: AgentEvent): void {
    switch (event.type) {
      case 'turn_start':
        this.trigger = event.trigger;
        return;
      case 'turn_end':
        this.lookEnded(event.wait);
        return;
      case 'history_loaded':
        // Another session (a switch, /new): its question is not this one's.
        this.p.alwaysOn.question.close();
        return;
      default:
        return;
    }
  }

  /**
   * A look that ran while an autonomous question watches and ended plainly gives the floor
   * back: the question is still the user's to answer (unless more changes wait).
   */
  private lookEnded(wait: boolean): void {
    const { question, pendingChanges } = this.p.alwaysOn;
    if (wait || this.trigger === 'user' || !question.watching()) return;
    if (this.p.state() === 'THINKING' && pendingChanges === 0) this.p.move('WAIT', BACK_TO_WAITING);
  }
}
