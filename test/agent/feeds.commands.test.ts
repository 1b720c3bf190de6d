/**
 * The background commands' count reaches the agent's events (and so the status bar, here and
 * on an attached screen): at wiring, then at every change, the same count never twice.
 */
import { describe, expect, it } from 'vitest';
import { wireFeeds } from '../../src/agent/feeds.js';
import type { AgentEvent } from '../../src/api/events.js';

describe('wireFeeds: commands', () => {
  it('reports the running count at start and on each change', () => {
    let count = 0;
    let listener = (): void => {};
    const events: AgentEvent[] = [];
    wireFeeds(
      {
        onSwitch: () => undefined,
        commands: { count: () => count, onChange: (l) => (listener = l) },
      },
      {
        emit: (e) => events.push(e),
        notice: () => undefined,
        writeFailed: () => undefined,
        subscribe: () => undefined,
        historyChanged: () => undefined,
      },
    );
    count = 2;
    listener();
    listener();
    count = 0;
    listener();
    const counts = events
      .filter((e) => e.type === 'commands_running')
      .map((e) => (e as { count: number }).count);
    expect(counts).toEqual([0, 2, 0]);
  });
});
