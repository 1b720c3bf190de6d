/**
 * What the screen needs from the agent, and nothing more: its front door (`send`) and its store. `Agent` satisfies it structurally;
 * component tests pass a small fake with a real `createAgentStore()` store.
 */
import type { AgentCommand } from '../src/api/commands.js';
import type { AgentStore } from '../src/store/agentStore.js';

export interface AgentController {
  /** The agent's one way in: every key that asks the agent something sends a command. */
  send(command: AgentCommand): unknown;
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
