/**
 * The door the background agent's socket uses into the agent: the Agent API (plain-data
 * commands in, events out, a snapshot for a screen that attaches late) and the facts
 * `status` reports. `appPort.ts` builds it from the app.
 */
import type { AgentCommand, SendResult } from '../api/commands.js';
import type { AgentEvent } from '../api/events.js';
import type { AgentSnapshot } from '../store/agentStore.js';
import type { Activity } from '../api/activity.js';
import type { BarFacts } from '../agent/stateLabel.js';

export type { AgentCommand };

/** What `status` reads from the agent itself. */
export interface AgentFacts {
  state: string;
  /** Tokens this home spent in the last 24 hours. */
  tokensToday: number;
  sessionId: string;
  /** Working, resting or waiting for the user's answer (absent before the agent started). */
  activity?: Activity;
  /** The same in words, in the agent's language: `resting, wakes on a change`. */
  doing?: string;
  /** What the status bar is drawn from, so `cogito status` says what the screen would. */
  bar?: BarFacts;
}

/** An event as the socket forwards it: the agent's own, plain data. */
export type DoorEvent = AgentEvent;

export interface AgentDoor {
  send(command: AgentCommand): SendResult;
  /** Returns the unsubscribe. */
  subscribe(listener: (event: DoorEvent) => void): () => void;
  snapshot(): AgentSnapshot;
  facts(): AgentFacts;
}
