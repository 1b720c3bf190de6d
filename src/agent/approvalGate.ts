import { can, type MachineEvent, type MachineState } from '../machine/machine.js';
import type { AgentEvent, ApprovalAnswer, ApprovalRequest } from '../api/events.js';

interface Waiter {
  id: number;
  /** The call as the card shows it (kept with the answer). */
  call: string;
  wasPaused: boolean;
  resolve(answer: ApprovalAnswer): void;
}

/**
 * Where answers are kept durably (history/answerLog.ts): `answered` is on disk when it
 * returns ok; `done` marks the answered call ended.
 */
export interface AnswerJournal {
  answered(a: {
    id: number;
    call: string;
    answer: ApprovalAnswer;
    at: number;
  }): { ok: true } | { ok: false; error: { message: string } };
  done(id: number): unknown;
}

/** An answer applied (`unsaved`: a "no" applied although it could not be kept), or refused. */
export type AnswerResult = { ok: true; unsaved?: string } | { ok: false; problem: string };

/**
 * The one open question to the user at a time. Asking moves the machine to
 * AWAITING_APPROVAL; the answer moves it back to where it was (thinking, or paused when the
 * question came from an answering turn). An abort of the turn answers "no".
 *
 * With a journal, an answer is written to disk before anyone hears of it (the card closing,
 * `cogito approve` exiting 0) and marked done when its call has ended (`settled`): after a
 * kill the next start can say which approved call never finished. A "yes" that cannot be
 * written is refused (the card stays); a "no" is applied anyway, since it runs nothing.
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
      journal?: AnswerJournal;
      now?: () => number;
    },
  ) {}

  /** The answered call still running: marked done in the journal when it ends. */
  private open: number | undefined;

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
        call: request.call,
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

  /** The user's answer, kept before it is applied; nothing being asked: ignored. */
  answer(answer: ApprovalAnswer): AnswerResult {
    const waiter = this.waiter;
    if (!waiter) return { ok: true };
    const at = (this.hooks.now ?? Date.now)();
    const kept = this.hooks.journal?.answered({ id: waiter.id, call: waiter.call, answer, at });
    let unsaved: string | undefined;
    if (kept && !kept.ok) {
      if (answer !== 'no')
        return {
          ok: false,
          problem: `answer_approval: the answer could not be saved, so it is not applied (${kept.error.message})`,
        };
      unsaved = kept.error.message;
    }
    if (kept?.ok) this.open = waiter.id;
    this.waiter = undefined;
    this.hooks.emit({ type: 'approval_resolved', id: waiter.id, answer });
    const done = waiter.wasPaused ? 'APPROVAL_DONE_PAUSED' : 'APPROVAL_DONE';
    // A pause while asking moves the machine on before the turn's abort clears the waiter.
    if (can(this.hooks.state(), done)) this.hooks.move(done);
    waiter.resolve(answer);
    return unsaved === undefined ? { ok: true } : { ok: true, unsaved };
  }

  /** The answered call has ended (its outcome saved): its answer is marked done. */
  settled(): void {
    const id = this.open;
    if (id === undefined) return;
    this.open = undefined;
    this.hooks.journal?.done(id);
  }

  /** Shutting down: whatever was asked is answered "no". */
  cancel(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.resolve('no');
  }
}
