/**
 * Test seams into parts the agent owns and no client may swap: a provider pointed at another
 * server, a history whose writes fail. Used only where a test or bench stages such a fault;
 * the agent's API (`send`, `subscribe`, `snapshot`) has no way to do it, on purpose.
 */
import type { Agent } from '../../src/agent/agent.js';
import type { AgentEvent } from '../../src/api/events.js';
import type { HistoryPort } from '../../src/pipeline/saver.js';
import type { Provider } from '../../src/providers/types.js';

interface Inside {
  turnDeps: { provider: Provider; history: HistoryPort };
  emit(event: {
    type: 'messages_replaced';
    messages: HistoryPort extends { messages(): infer M } ? M : never;
  }): void;
}

const inside = (agent: Agent): Inside => agent as unknown as Inside;

/** Points the agent at another model provider (what /model does, without the command). */
export function swapProvider(agent: Agent, provider: Provider): void {
  inside(agent).turnDeps.provider = provider;
}

/** Puts an event on the agent's bus as if the agent had emitted it (a bench's seed data). */
export function emitAsAgent(agent: Agent, event: AgentEvent): void {
  (agent as unknown as { emit(e: AgentEvent): void }).emit(event);
}

/** Makes the agent read and write another history, shown on the store as it is. */
export function swapHistory(agent: Agent, history: HistoryPort): void {
  inside(agent).turnDeps.history = history;
  inside(agent).emit({ type: 'messages_replaced', messages: history.messages() });
}
