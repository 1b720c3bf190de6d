import type { TurnTrigger } from './trace.js';

/** How a cycle ended. */
export type CycleEnd = 'continued' | 'waited' | 'paused' | 'interrupted' | 'failed' | 'command';

/** One record per turn: the cycle ledger, kept in the session folder. */
export interface CycleRecord {
  turnId: number;
  /** Epoch ms when the turn started. */
  at: number;
  reason: TurnTrigger;
  durationMs: number;
  tokensIn: number;
  tokensCached: number;
  tokensOut: number;
  /** The calls it made, as written (`read("a.txt")`). */
  tools: string[];
  /** Skills the user ran as a command in it (`/name`); absent when none. */
  skills?: string[];
  /** Workspace paths changed by its successful write-kind calls. */
  files: string[];
  end: CycleEnd;
  /** Why it paused, when it did. */
  pauseReason?: string;
  /** The reply as shown (without calls), cut to a few hundred characters. */
  reply?: string;
}
