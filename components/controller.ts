/**
 * What the screen needs from the agent, and nothing more. `Agent` satisfies it structurally;
 * component tests pass a small fake with a real `createAgentStore()` store.
 */
import type { ApprovalAnswer } from '../src/api/events.js';
import type { AgentStore } from '../src/store/agentStore.js';

export interface AgentController {
  /** Stop the turn in flight and listen (Enter, Esc, a printable key, Ctrl+C while busy). */
  interrupt(): unknown;
  /** Send a message; empty text just resumes thinking. */
  submit(text: string): void;
  /** Ctrl+P: pause autonomy, or resume it. */
  togglePause(): void;
  answerApproval(answer: ApprovalAnswer): void;
  /** Everything the screen shows; it changes only through agent events. */
  readonly store: AgentStore;
  /** True while a turn runs (optional: the store's state is used when it is missing). */
  readonly busy?: boolean;
}

/** The background loop: started when the screen mounts, stopped when it unmounts. */
export interface AgentLoop {
  start(): void;
  stop(): unknown;
}
