import { can, type MachineEvent, type MachineState } from '../machine/machine.js';
import type { AgentEvent, ApprovalAnswer, ApprovalRequest } from '../api/events.js';

interface Waiter {
  id: number;
  wasPaused: boolean;
  resolve(answer: ApprovalAnswer): void;
}

/**
 * The one open question to the user at a time. Asking moves the machine to
 * AWAITING_APPROVAL; the answer moves it back to where it was (thinking, or paused when the
 * question came from an answering turn). An abort of the turn answers "no".
 */
export class ApprovalGate {
  private waiter: Waiter | undefined;
  private counter = 0;

  constructor(
    private readonly hooks: {
      emit(event: AgentEvent): void;
      /** Moves the machine (throws on an event the table forbids: ask `can` first). */
      move(event: MachineEvent): void;
      state(): MachineState;
    },
  ) {}

  ask(request: Omit<ApprovalRequest, 'id'>, signal: AbortSignal): Promise<ApprovalAnswer> {
    if (signal.aborted) return Promise.resolve('no');
    const wasPaused = this.hooks.state() === 'PAUSED';
    // The user may have moved the machine away (to AWAITING_INPUT) before the turn's abort
    // reached this call: nobody is there to ask, so the answer is no.
    if (!can(this.hooks.state(), 'REQUEST_APPROVAL')) return Promise.resolve('no');
    this.hooks.move('REQUEST_APPROVAL');
    const id = ++this.counter;
    return new Promise<ApprovalAnswer>((resolve) => {
      const onAbort = (): void => {
        if (this.waiter?.id === id) {
          this.waiter = undefined;
          this.hooks.emit({ type: 'approval_resolved', id, answer: 'no' });
        }
        resolve('no');
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiter = {
        id,
        wasPaused,
        resolve: (answer) => {
          signal.removeEventListener('abort', onAbort);
          resolve(answer);
        },
      };
      this.hooks.emit({ type: 'approval_request', request: { ...request, id } });
    });
  }

  /** The id of the request waiting for an answer; none waiting: `undefined`. */
  get waitingId(): number | undefined {
    return this.waiter?.id;
  }

  /** Whether the open question came from an answering turn while paused. */
  get askedWhilePaused(): boolean {
    return this.waiter?.wasPaused === true;
  }

  /** The user's answer; ignored when nothing is being asked. */
  answer(answer: ApprovalAnswer): void {
    const waiter = this.waiter;
    if (!waiter) return;
    this.waiter = undefined;
    this.hooks.emit({ type: 'approval_resolved', id: waiter.id, answer });
    const done = waiter.wasPaused ? 'APPROVAL_DONE_PAUSED' : 'APPROVAL_DONE';
    // A pause while asking moves the machine on before the turn's abort clears the waiter.
    if (can(this.hooks.state(), done)) this.hooks.move(done);
    waiter.resolve(answer);
  }

  /** Shutting down: whatever was asked is answered "no". */
  cancel(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.resolve('no');
  }
}
