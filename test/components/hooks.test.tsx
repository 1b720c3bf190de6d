import React from 'react';
import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, test } from 'vitest';
import { App } from '../../components/App.js';
import { createAgentStore, type AgentStore } from '../../src/store/agentStore.js';
import { shallowEqual, useThrottledStore } from '../../components/hooks/useThrottledStore.js';
import { createFakeController } from '../helpers/fakeController.js';
import { renderApp } from '../helpers/renderApp.js';
import { waitFor, waitForFrame } from '../helpers/waitForFrame.js';
import { replyUpdates } from '../helpers/replyParts.js';

/** Counts the store's live subscriptions, to check that every hook cleans up. */
function countSubscriptions(store: AgentStore): () => number {
  let live = 0;
  const subscribe = store.subscribe.bind(store);
  store.subscribe = (listener) => {
    live++;
    const off = subscribe(listener);
    return () => {
      live--;
      off();
    };
  };
  return () => live;
}

describe('useThrottledStore', () => {
  test('a burst of events renders once per frame, and ends on the latest state', async () => {
    const store = createAgentStore();
    let renders = 0;
    function Reply(): React.JSX.Element {
      renders++;
      const text = useThrottledStore(store, (s) => s.liveReply);
      return <Text>{text || '-'}</Text>;
    }
    const r = render(<Reply />);
    await waitForFrame(r.lastFrame, (f) => f === '-');
    const before = renders;
    const update = replyUpdates();
    for (let i = 0; i < 500; i++) store.getState().apply(update('x'));
    await waitForFrame(r.lastFrame, (f) => f.replace(/\n/g, '') === 'x'.repeat(500));
    expect(renders - before).toBeLessThanOrEqual(2);
    r.unmount();
  });

  test('a selector building an object does not loop with shallowEqual', async () => {
    const store = createAgentStore({ model: 'm', persona: 'p' });
    let renders = 0;
    function Pair(): React.JSX.Element {
      renders++;
      const s = useThrottledStore(
        store,
        (st) => ({ model: st.model, persona: st.persona }),
        shallowEqual,
      );
      return <Text>{`${s.model}/${s.persona}`}</Text>;
    }
    const r = render(<Pair />);
    await waitForFrame(r.lastFrame, (f) => f === 'm/p');
    store.getState().apply(replyUpdates()('unrelated'));
    store.getState().apply({ type: 'settings_changed', model: 'n' });
    await waitForFrame(r.lastFrame, (f) => f === 'n/p');
    expect(renders).toBeLessThanOrEqual(3);
    r.unmount();
  });
});

describe('the screen', () => {
  test('starts the loop on mount and stops it on unmount; subscriptions are released', async () => {
    const c = createFakeController({ machine: 'THINKING' });
    const live = countSubscriptions(c.store);
    const h = await renderApp({ c, loop: c });
    expect(c.methods()).toEqual(['start']);
    expect(live()).toBeGreaterThan(0);
    c.emit({ type: 'request_start', turnId: 1, promptTokens: 1 }); // a spinner timer runs
    await h.waitFor((f) => /Thinking \S/.test(f));
    h.unmount();
    expect(c.methods()).toEqual(['start', 'stop']);
    await waitFor(() => live() === 0, 'every store subscription to be released');
  });
});

describe('resizing', () => {
  test('the screen adds no resize listener of its own (the terminal session is the one path)', async () => {
    const bare = render(<Text>x</Text>);
    await waitForFrame(bare.lastFrame, (f) => f === 'x');
    const inkOwn = bare.stdout.listenerCount('resize');
    bare.unmount();
    const c = createFakeController({ machine: 'AWAITING_INPUT' });
    const r = render(<App controller={c} columns={100} rows={30} />);
    await waitForFrame(r.lastFrame, (f) => f.includes('Conversation'));
    expect(r.stdout.listenerCount('resize')).toBe(inkOwn);
    r.unmount();
  });
});
