import { describe, expect, it } from 'vitest';
import {
  IllegalTransitionError,
  MACHINE_EVENTS,
  MACHINE_STATES,
  can,
  next,
  type MachineEvent,
  type MachineState,
} from '../../src/machine/machine.js';

// The expected table, written out independently of the implementation so that a change to
// either one shows up here.
const expected: Record<MachineState, Partial<Record<MachineEvent, MachineState>>> = {
  THINKING: {
    INTERRUPT: 'AWAITING_INPUT',
    WAIT: 'AWAITING_INPUT',
    PAUSE: 'PAUSED',
    AUTO_PAUSE: 'PAUSED',
    REQUEST_APPROVAL: 'AWAITING_APPROVAL',
  },
  AWAITING_INPUT: { SUBMIT: 'THINKING', PAUSE: 'PAUSED', RESUME: 'THINKING' },
  PAUSED: {
    RESUME: 'THINKING',
    SUBMIT: 'PAUSED',
    INTERRUPT: 'PAUSED',
    WAIT: 'PAUSED',
    AUTO_PAUSE: 'PAUSED',
    REQUEST_APPROVAL: 'AWAITING_APPROVAL',
  },
  AWAITING_APPROVAL: {
    APPROVAL_DONE: 'THINKING',
    APPROVAL_DONE_PAUSED: 'PAUSED',
    INTERRUPT: 'AWAITING_INPUT',
    PAUSE: 'PAUSED',
    AUTO_PAUSE: 'PAUSED',
  },
};

describe('agent machine transition table', () => {
  const pairs = MACHINE_STATES.flatMap((s) => MACHINE_EVENTS.map((e) => [s, e] as const));

  it('covers every (state, event) pair', () => {
    expect(pairs).toHaveLength(MACHINE_STATES.length * MACHINE_EVENTS.length);
  });

  it.each(pairs)('%s + %s lands where the table says or is rejected', (state, event) => {
    const to = expected[state][event];
    if (to === undefined) {
      expect(can(state, event)).toBe(false);
      expect(() => next(state, event)).toThrow(IllegalTransitionError);
      expect(() => next(state, event)).toThrow(`${event} is not allowed in state ${state}`);
    } else {
      expect(can(state, event)).toBe(true);
      expect(next(state, event)).toBe(to);
    }
  });

  it('pause is reachable from every state and resume always leads back to thinking', () => {
    for (const s of MACHINE_STATES) {
      if (s === 'PAUSED') continue;
      expect(next(s, 'PAUSE')).toBe('PAUSED');
    }
    expect(next('PAUSED', 'RESUME')).toBe('THINKING');
  });
});
