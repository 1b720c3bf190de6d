/**
 * Commands in: what `agent.send` does with each command. The agent owns it and hands it the
 * machine, the scheduler and the turn runner's few verbs; it is the only code that acts on
 * what the user (or a client) asks.
 */
import {
  editQueuedProblem,
  queueProblem,
  unknownQueuedProblem,
  slashCommandText,
  type AgentCommand,
  type SendResult,
} from '../api/commands.js';
import { can, type MachineEvent, type MachineState } from '../machine/machine.js';
import type { Scheduler } from '../scheduler/scheduler.js';
import type { AlwaysOn } from './alwaysOn.js';
import type { ApprovalGate } from './approvalGate.js';
import { isCommand, type InputQueue } from './inputQueue.js';
import type { TurnMemory } from './turn.js';
import type { Steers } from './steers.js';
import { t, type Lang } from '../i18n/messages.js';

const OK: SendResult = { ok: true };
/** A command that does not apply in this state: refused with the problem, nothing done, no event. */
const NOTHING = (what: string): SendResult => ({ ok: false, problem: `${what}; nothing done` });

/** What the controls act on, handed over by the agent. */
export interface ControlsDeps {
  state(): MachineState;
  /** True while a turn runs. */
  busy(): boolean;
  /** The agent's one way to move the machine. */
  move(event: MachineEvent, reason?: string): void;
  notice(text: string, level: 'info' | 'warn'): void;
  turns: Pick<TurnMemory, 'abort' | 'commandInFlight' | 'userSpoke' | 'resumed'>;
  scheduler: Pick<Scheduler, 'wake' | 'runUserTurn'>;
  inputs: InputQueue;
  /** Messages to read at the turn's next tool boundary. */
  steers: Steers;
  /** The user's language, for the notices the controls give. */
  lang(): Lang;
  alwaysOn: Pick<AlwaysOn, 'wakeUp'>;
  approvals: Pick<ApprovalGate, 'answer' | 'cancel' | 'askedWhilePaused' | 'waitingId'>;
}

export class AgentControls {
  constructor(private readonly c: ControlsDeps) {}

  /** The body of `Agent.send` (described there): each command to what acts on it. */
  send(command: AgentCommand): SendResult {
    switch (command.type) {
      case 'submit':
        this.submit(command.text);
        return OK;
      case 'queue':
        return this.queue(command.text);
      case 'steer':
        return this.steer(command.text);
      case 'edit_queued': {
        const problem = editQueuedProblem(command.text);
        if (problem) return { ok: false, problem };
        return this.c.inputs.edit(command.id, command.text)
          ? OK
          : { ok: false, problem: unknownQueuedProblem(command.id) };
      }
      case 'drop_queued':
        return this.c.inputs.drop(command.id)
          ? OK
          : { ok: false, problem: unknownQueuedProblem(command.id) };
      case 'interrupt':
        return this.interrupt() ? OK : NOTHING('interrupt: nothing is in flight');
      case 'pause':
        if (!can(this.c.state(), 'PAUSE')) return NOTHING('pause: the agent is paused already');
        this.pause(command.reason);
        return OK;
      case 'resume':
        if (!can(this.c.state(), 'RESUME')) return NOTHING('resume: the agent is not paused');
        this.resume();
        return OK;
      case 'toggle_pause':
        if (this.c.state() === 'PAUSED') this.resume();
        else this.pause();
        return OK;
      case 'answer_approval': {
        const waiting = this.c.approvals.waitingId;
        if (command.id !== undefined && command.id !== waiting)
          return NOTHING(
            waiting === undefined
              ? `answer_approval: approval ${command.id} is not waiting any more`
              : `answer_approval: approval ${command.id} is not the one waiting (${waiting} is)`,
          );
        // Kept on disk before it is applied and acknowledged (approvalGate.ts).
        const answered = this.c.approvals.answer(command.answer);
        if (!answered.ok) {
          // The screen's own y/n has no reply to show: the notice says why the card stays.
          const why = answered.problem.replace(/^answer_approval: /, '');
          this.c.notice(`Your answer was not applied: ${why}.`, 'warn');
          return answered;
        }
        if (answered.unsaved !== undefined)
          this.c.notice(`The answer could not be saved: ${answered.unsaved}`, 'warn');
        return OK;
      }
      case 'command':
      case 'new_session': {
        const text = command.type === 'command' ? slashCommandText(command.text) : '/new';
        if (typeof text !== 'string') return { ok: false, problem: text.problem };
        this.submit(text);
        return OK;
      }
      case 'notice':
        this.c.notice(command.text, command.level ?? 'info');
        return OK;
    }
  }

  /** Enter / Esc / a printable key / Ctrl+C while busy: stop now and listen. */
  interrupt(): boolean {
    // A question asked during an answering turn while paused: stopping it keeps autonomy off.
    if (this.c.state() === 'AWAITING_APPROVAL' && this.c.approvals.askedWhilePaused) {
      this.c.approvals.cancel();
      this.c.move('APPROVAL_DONE_PAUSED');
      this.c.turns.abort();
      return true;
    }
    // The keys send an interrupt in any state; waiting for the user already, it means nothing.
    if (!can(this.c.state(), 'INTERRUPT')) return false;
    this.c.move('INTERRUPT');
    this.c.turns.abort();
    return true;
  }

  /**
   * The user sends a message (or, empty, just resumes). Whatever is in flight stops first.
   * The input is queued and taken by the next user turn's RESTORE, which starts once the
   * stopped turn has saved what it produced: so the history keeps the true order (the cut-off
   * reply, then the user's words). A slash command runs in that turn's COMMAND phase.
   */
  private submit(text: string): void {
    if (this.c.state() === 'THINKING' || this.c.state() === 'AWAITING_APPROVAL') {
      // A slash command in flight is short and makes no model call: let it finish.
      if (this.c.turns.commandInFlight) this.c.move('INTERRUPT');
      else this.interrupt();
    }
    // A follow-up while paused replaces the answer still streaming.
    else if (this.c.state() === 'PAUSED' && this.c.busy()) this.c.turns.abort();
    // Every state above now accepts SUBMIT (waiting for the user, or paused).
    this.c.move('SUBMIT');
    const trimmed = text.trim();
    if (trimmed === '') {
      // An empty Enter asks for a look now (README: "lets it think again"): the pace starts
      // over and the idle skip, which would let a timer look pass as "nothing changed",
      // does not apply.
      this.c.alwaysOn.wakeUp();
      this.c.scheduler.wake(0, 'resume');
      return;
    }
    const unsaved = this.c.inputs.push(isCommand(trimmed) ? trimmed : text);
    if (!isCommand(trimmed)) this.c.turns.userSpoke();
    if (unsaved !== undefined)
      this.c.notice(`The message could not be saved before it is answered: ${unsaved}`, 'warn');
    this.c.scheduler.runUserTurn();
  }

  /**
   * A message for the next turn boundary: the work in flight is not stopped (a tool chain runs
   * to its end); it waits, shown as queued (editable, droppable), and the user turn that
   * starts once that turn ends takes it. With nothing in flight that boundary is now: resting
   * between looks, waiting after [WAIT] or paused, it is answered at once like a typed message
   * (paused: answered, and autonomy stays off).
   */
  private queue(text: string): SendResult {
    const problem = queueProblem(text);
    if (problem) return { ok: false, problem };
    if (!this.c.busy()) this.submit(text);
    else {
      // Acknowledged only once it is on disk (the session's inbox): a kill now loses nothing.
      const queued = this.c.inputs.queue(isCommand(text.trim()) ? text.trim() : text);
      if ('problem' in queued)
        return {
          ok: false,
          problem: `the message could not be saved, so it is not queued: ${queued.problem}`,
        };
      this.c.scheduler.runUserTurn();
    }
    return OK;
  }

  /**
   * A message that amends the task in flight: the turn reads it at its next tool boundary
   * (steers.ts). Nothing in flight, a slash command, or a command running: it is queued.
   */
  private steer(text: string): SendResult {
    const problem = queueProblem(text);
    if (problem) return { ok: false, problem };
    if (!this.c.busy() || isCommand(text.trim()) || this.c.turns.commandInFlight)
      return this.queue(text);
    this.c.steers.add(text);
    this.c.notice(t(this.c.lang(), 'notice.steering'), 'info');
    return OK;
  }

  /** Autonomy off (the pause key, /pause); the turn in flight stops. Paused already: nothing. */
  pause(reason?: string): void {
    if (!can(this.c.state(), 'PAUSE')) return;
    this.c.move('PAUSE', reason);
    this.c.turns.abort();
  }

  /** Autonomy back on (the pause key while paused, /resume); thinking already: nothing. */
  resume(): void {
    if (!can(this.c.state(), 'RESUME')) return;
    this.c.move('RESUME');
    this.c.turns.resumed();
    this.c.alwaysOn.wakeUp();
    this.c.scheduler.wake(0, 'resume');
  }
}
