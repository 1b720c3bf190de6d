import { afterEach, describe, expect, it, vi } from 'vitest';
import { IllegalTransitionError } from '../../src/machine/machine.js';
import { createAgentStore } from '../../src/store/agentStore.js';
import { initialViewState, reduce } from '../../src/store/reducer.js';

describe("the store's dispatch: the one writer of the machine", () => {
  afterEach(() => vi.unstubAllEnvs());

  it('moves by the table and returns the state_changed event to emit', () => {
    const store = createAgentStore({ machine: 'THINKING' });
    const change = store.getState().dispatch('PAUSE', 'by hand');
    expect(change).toEqual({
      type: 'state_changed',
      from: 'THINKING',
      to: 'PAUSED',
      event: 'PAUSE',
      reason: 'by hand',
    });
    expect(store.getState().machine).toBe('PAUSED');
  });

  it('an illegal event throws in development and tests, and changes nothing', () => {
    const store = createAgentStore({ machine: 'AWAITING_INPUT' });
    expect(() => store.getState().dispatch('WAIT')).toThrow(IllegalTransitionError);
    expect(() => store.getState().dispatch('WAIT')).toThrow(
      'WAIT is not allowed in state AWAITING_INPUT',
    );
    expect(store.getState()).toMatchObject({ machine: 'AWAITING_INPUT', notices: [] });
  });

  it('in production an illegal event is reported as a warn notice naming state and event', () => {
    vi.stubEnv('NODE_ENV', 'production');
    const store = createAgentStore({ machine: 'PAUSED' });
    expect(store.getState().dispatch('APPROVAL_DONE')).toBeUndefined();
    const s = store.getState();
    expect(s.machine).toBe('PAUSED');
    expect(s.notices).toHaveLength(1);
    expect(s.notices[0]).toMatchObject({ level: 'warn' });
    expect(s.notices[0]!.text).toContain('APPROVAL_DONE');
    expect(s.notices[0]!.text).toContain('PAUSED');
  });

  it('a state_changed event applied to the store does not move the machine', () => {
    const store = createAgentStore({ machine: 'THINKING' });
    store
      .getState()
      .apply({ type: 'state_changed', from: 'THINKING', to: 'PAUSED', event: 'PAUSE' });
    expect(store.getState().machine).toBe('THINKING');
  });
});

describe('the reducer, bare', () => {
  it('is pure: the same state and event give the same patch, and the state is not touched', () => {
    const state = initialViewState();
    const frozen = JSON.stringify(state);
    const event = { type: 'notice', level: 'info', text: 'hi' } as const;
    const a = reduce(state, event, 1000);
    const b = reduce(state, event, 1000);
    expect(a).toEqual(b);
    expect(a.notices).toEqual([{ id: 1, level: 'info', text: 'hi', at: 1000 }]);
    expect(JSON.stringify(state)).toBe(frozen);
  });

  it('notice ids count up within a store', () => {
    const store = createAgentStore();
    store.getState().apply({ type: 'notice', level: 'info', text: 'a' });
    store.getState().apply({ type: 'notice', level: 'warn', text: 'b' });
    expect(store.getState().notices.map((n) => n.id)).toEqual([1, 2]);
  });
});
