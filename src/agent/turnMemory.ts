/**
 * What the agent keeps from one turn to the next: the cycle count, the loop guard's memory,
 * the tokens not yet counted against the budget and how full the context is. These are the
 * agent's own numbers; the store's copies are for the screen.
 */
export class TurnMemory {
  /** Autonomous cycles since the user last spoke (or autonomy was resumed). */
  cycle = 0;
  /** A slash command is running (it is short and makes no model call: a submit lets it end). */
  commandInFlight = false;
  controller: AbortController | undefined;
  turns = 0;
  /** The last run's crash record is finished (or there was none to finish). */
  recovered = false;
  recentCalls: readonly string[] = [];
  /** Tokens of turns since the last one that went through (they count with it). */
  unbudgetedTokens = 0;
  contextTokens = 0;

  /** Stops the turn in flight (its signal reaches the provider and every tool). */
  abort(): void {
    this.controller?.abort();
  }

  /** The user spoke: a fresh cycle count and loop guard. */
  userSpoke(): void {
    this.cycle = 0;
    this.recentCalls = [];
  }

  /** Autonomy was resumed: the cycle count starts over (the loop guard keeps its memory). */
  resumed(): void {
    this.cycle = 0;
  }
}
