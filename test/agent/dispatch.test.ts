/**
 * The agent moves its machine only through the store's dispatch: listeners still see every
 * transition (after the store has it), events that do not apply are checked before, never
 * dropped, and decisions come from the agent's own counts, not from what the screen shows.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/api/events.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { waitForStore } from '../helpers/waitFor.js';
import { internalsOf } from '../helpers/agentInternals.js';

let h: Harness;
afterEach(async () => h?.dispose());

describe('the agent and its machine', () => {
  it('listeners see each transition after the store has made it, and RESPOND settles before turn_end', async () => {
    h = await createHarness({ initialState: 'AWAITING_INPUT' });
    const seen: string[] = [];
    h.agent.subscribe((e: AgentEvent) => {
      if (e.type === 'state_changed') {
        expect(h.agent.store.getState().machine).toBe(e.to);
        seen.push(`${e.event}:${e.from}->${e.to}`);
      }
      if (e.type === 'turn_end') seen.push('turn_end');
    });
    h.server.push({ kind: 'stream', content: 'hi [WAIT]' });
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'hello' });
    await waitForStore(h.agent.store, (s) => s.traces.length > 0, 'the answer');
    expect(seen).toEqual([
      'SUBMIT:AWAITING_INPUT->THINKING',
      'WAIT:THINKING->AWAITING_INPUT',
      'turn_end',
    ]);
    const respond = h.agent.store.getState().traces[0]!.phases.find((p) => p.phase === 'RESPOND');
    expect(respond?.outcome).toBe('next');
  });

  it('verbs that do not apply in a state do nothing, checked before (no event, no throw)', async () => {
    h = await createHarness({ initialState: 'AWAITING_INPUT' });
    const changes: AgentEvent[] = [];
    h.agent.subscribe((e) => e.type === 'state_changed' && changes.push(e));
    expect(h.agent.send({ type: 'interrupt' }).ok).toBe(false);
    h.agent.send({ type: 'pause' });
    expect(h.agent.send({ type: 'pause' }).ok).toBe(false);
    expect(h.agent.state).toBe('PAUSED');
    h.agent.send({ type: 'resume' });
    h.agent.send({ type: 'resume' });
    expect(h.agent.state).toBe('THINKING');
    await h.agent.stop();
    expect(changes.map((e) => e.type === 'state_changed' && e.event)).toEqual(['PAUSE', 'RESUME']);
  });

  it("budgets decide from the agent's own token counts, not the store's view-only totals", async () => {
    h = await createHarness({
      initialState: 'AWAITING_INPUT',
      settings: { tokenBudgetPerHour: 12_000 },
    });
    // The screen's totals say the session is far over budget; the agent must not care.
    h.agent.store.setState({ sessionTokens: 1e9, contextTokens: 1e9 });
    h.server.push({
      kind: 'stream',
      content: 'hi [WAIT]',
      usage: { prompt_tokens: 90, completion_tokens: 10 },
    });
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'hello' });
    const s = await waitForStore(h.agent.store, (st) => st.traces.length > 0, 'the answer');
    expect(s.budgetUsed).toBe(100);
    expect(s.machine).toBe('AWAITING_INPUT');
    expect(internalsOf(h.agent).counter.exact).toBe(false);
  });
});
