/**
 * The narrow door the background agent's socket uses into the agent: plain-data commands in,
 * events out, and a status snapshot. Declared here so the daemon does not depend on today's
 * Agent methods; `todayAgentPort.ts` is the one adapter onto them (the Agent API of issue
 * #26 replaces it).
 */

/** A command, as plain data (the same shapes the Agent API takes). */
export type AgentCommand =
  | { type: 'submit'; text: string }
  | { type: 'queue'; text: string }
  | { type: 'interrupt' }
  | { type: 'pause'; reason?: string }
  | { type: 'resume' }
  | { type: 'toggle_pause' }
  | { type: 'answer_approval'; answer: string }
  | { type: 'command'; text: string };

/** What `status` reads from the agent itself. */
export interface AgentFacts {
  state: string;
  /** Tokens this home spent in the last 24 hours. */
  tokensToday: number;
  sessionId: string;
}

/** An event as plain data; the socket forwards it as it is. */
export interface PortEvent {
  type: string;
  [key: string]: unknown;
}

export interface AgentPort {
  send(command: AgentCommand): void;
  /** Returns the unsubscribe. */
  subscribe(listener: (event: PortEvent) => void): () => void;
  facts(): AgentFacts;
}
