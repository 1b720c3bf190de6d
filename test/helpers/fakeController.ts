/**
 * A small stand-in for the agent, for screen tests: a real store (`createAgentStore`) fed
 * through `apply(event)`, machine moves made by its `dispatch` (the real table), and a record
 * of every call the screen made.
 */
import { makeMessage } from '../../src/core/messages.js';
import type {
  AgentEvent,
  ApprovalAnswer,
  ApprovalRequest,
  ToolLogEntry,
} from '../../src/api/events.js';
import type { AgentCommand } from '../../src/api/commands.js';
import { can, type MachineEvent } from '../../src/machine/machine.js';
import { createAgentStore, type AgentStore } from '../../src/store/agentStore.js';
import type { AgentViewState } from '../../src/store/reducer.js';

export type Call =
  | { method: 'interrupt' }
  | { method: 'submit'; text: string }
  | { method: 'togglePause' }
  | { method: 'answerApproval'; answer: ApprovalAnswer }
  | { method: 'start' }
  | { method: 'stop' };

export interface FakeController {
  store: AgentStore;
  /** The screen's one way in: each command is recorded as the call it stands for. */
  send(command: AgentCommand): void;
  busy?: boolean;
  calls: Call[];
  interrupt(): boolean;
  submit(text: string): void;
  togglePause(): void;
  answerApproval(answer: ApprovalAnswer): void;
  start(): void;
  stop(): Promise<void>;
  /** Feeds one event to the store, as the agent would. */
  emit(event: AgentEvent): void;
  /** Moves the machine through the real table (throws when the table forbids it). */
  move(event: MachineEvent, reason?: string): void;
  /** Names of the calls so far, e.g. ["interrupt", "submit"]. */
  methods(): string[];
}

export function createFakeController(init: Partial<AgentViewState> = {}): FakeController {
  const store = createAgentStore({ model: 'test-model', persona: 'explorer', ...init });
  const emit = (event: AgentEvent): void => store.getState().apply(event);
  // The store's dispatch is the one writer of the machine, as for the real agent.
  const move = (event: MachineEvent, reason?: string): void => {
    const change = store.getState().dispatch(event, reason);
    if (change) emit(change);
  };
  const tryMove = (event: MachineEvent): boolean => {
    if (!can(store.getState().machine, event)) return false;
    move(event);
    return true;
  };
  const c: FakeController = {
    store,
    calls: [],
    emit,
    move,
    methods: () => c.calls.map((x) => x.method),
    send(command) {
      switch (command.type) {
        case 'interrupt':
          return void c.interrupt();
        case 'submit':
          return c.submit(command.text);
        case 'toggle_pause':
          return c.togglePause();
        case 'answer_approval':
          return c.answerApproval(command.answer);
        case 'notice':
          return emit({ type: 'notice', level: command.level ?? 'info', text: command.text });
        default:
          throw new Error(
            `the fake controller does not take ${command.type} (the screen never sends it)`,
          );
      }
    },
    interrupt() {
      c.calls.push({ method: 'interrupt' });
      return tryMove('INTERRUPT');
    },
    submit(text) {
      c.calls.push({ method: 'submit', text });
      const state = store.getState().machine;
      if (state === 'THINKING' || state === 'AWAITING_APPROVAL') tryMove('INTERRUPT');
      if (!tryMove('SUBMIT')) return;
      if (text.trim() !== '' && !text.trim().startsWith('/'))
        emit({ type: 'message_added', message: makeMessage('user', text) });
    },
    togglePause() {
      c.calls.push({ method: 'togglePause' });
      tryMove(store.getState().machine === 'PAUSED' ? 'RESUME' : 'PAUSE');
    },
    answerApproval(answer) {
      c.calls.push({ method: 'answerApproval', answer });
      const a = store.getState().approval;
      if (!a) return;
      emit({ type: 'approval_resolved', id: a.id, answer });
      tryMove('APPROVAL_DONE');
    },
    start() {
      c.calls.push({ method: 'start' });
    },
    async stop() {
      c.calls.push({ method: 'stop' });
    },
  };
  return c;
}

let callN = 0;

/** A finished (or running) tool-log entry with sensible defaults. */
export function toolEntry(over: Partial<ToolLogEntry> = {}): ToolLogEntry {
  callN += 1;
  return {
    callId: `call-${callN}`,
    turnId: 1,
    name: 'ls',
    args: ['.'],
    call: 'ls(".")',
    status: 'ok',
    summary: '3 entries',
    full: 'notes.md\ntodo.txt\nreport.docx',
    durationMs: 12,
    startedAt: Date.now(),
    ...over,
  };
}

/** Puts the machine in AWAITING_APPROVAL with a request on screen. */
export function askApproval(
  c: FakeController,
  over: Partial<ApprovalRequest> = {},
): ApprovalRequest {
  const request: ApprovalRequest = {
    id: 1,
    tool: 'delete',
    kind: 'destructive',
    call: 'delete("old.txt")',
    reason: 'destructive tools ask first',
    ...over,
  };
  if (c.store.getState().machine !== 'THINKING')
    c.move(c.store.getState().machine === 'PAUSED' ? 'RESUME' : 'SUBMIT');
  c.move('REQUEST_APPROVAL');
  c.emit({ type: 'approval_request', request });
  return request;
}
