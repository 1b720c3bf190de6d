import type { MachineEvent } from '../machine/machine.js';
import type { AgentEvent, ApprovalAnswer, ApprovalRequest } from './events.js';

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
      transition(event: MachineEvent): boolean;
      isPaused(): boolean;
    },
  ) {}

  ask(request: Omit<ApprovalRequest, 'id'>, signal: AbortSignal): Promise<ApprovalAnswer> {
    if (signal.aborted) return Promise.resolve('no');
    const wasPaused = this.hooks.isPaused();
    if (!this.hooks.transition('REQUEST_APPROVAL')) return Promise.resolve('no');
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
    this.hooks.transition(waiter.wasPaused ? 'APPROVAL_DONE_PAUSED' : 'APPROVAL_DONE');
    waiter.resolve(answer);
  }

  /** Shutting down: whatever was asked is answered "no". */
  cancel(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.resolve('no');
  }
}
