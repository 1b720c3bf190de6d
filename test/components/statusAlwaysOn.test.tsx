import React from 'react';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, test } from 'vitest';
import { StatusBar } from '../../components/StatusBar.js';
import { createFakeController } from '../helpers/fakeController.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { waitForStore } from '../helpers/waitFor.js';
import { waitForFrame } from '../helpers/waitForFrame.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe('StatusBar: always on', () => {
  test('a budget the next request would exceed pauses before sending; the reason is on screen', async () => {
    h = await createHarness({ initialState: 'THINKING', settings: { tokenBudgetPerDay: 200 } });
    h.server.setDefault({ kind: 'stream', content: 'hello' });
    const r = render(<StatusBar store={h.agent.store} width={160} workspace="/w" />);
    h.agent.start();
    await waitForStore(h.agent.store, (s) => s.machine === 'PAUSED', 'the pause');
    const f = await waitForFrame(r.lastFrame, (x) => x.includes('Paused ·'));
    expect(f).toMatch(/● Paused · paused before sending: the next request/);
    expect(f).toMatch(/0\/200 today/);
    expect(h.server.requests).toHaveLength(0);
    r.unmount();
  });

  test('resting shows when the next look is; cached tokens show beside the session total', async () => {
    const c = createFakeController({
      machine: 'THINKING',
      nextTurnAt: Date.now() + 4 * 60_000 + 500,
      sessionTokens: 10_000,
      sessionCachedTokens: 7_000,
    });
    const r = render(<StatusBar store={c.store} width={160} workspace="/w" />);
    const f = await waitForFrame(r.lastFrame, (x) => x.includes('Resting'));
    expect(f).toContain('● Resting · next look in 4m');
    expect(f).toContain('Session 10k (cached 7k)');
    r.unmount();
  });
});
