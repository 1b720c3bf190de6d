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

/*
 * The machine's promises to the user, each written as a rule over every (state, event) pair
 * rather than as a copy of the table: a table that breaks a promise fails here, whatever the
 * table says elsewhere.
 */

const pairs = MACHINE_STATES.flatMap((s) => MACHINE_EVENTS.map((e) => [s, e] as const));
/** Where `event` takes `state`, or undefined when the machine refuses it. */
const target = (state: MachineState, event: MachineEvent): MachineState | undefined =>
  can(state, event) ? next(state, event) : undefined;
const allowed = pairs.filter(([s, e]) => can(s, e));

describe('agent machine: a refused event fails loudly, an allowed one always lands the same', () => {
  it.each(pairs)('%s + %s: next() agrees with can()', (state, event) => {
    if (can(state, event)) {
      const to = next(state, event);
      expect(MACHINE_STATES).toContain(to);
      expect(next(state, event)).toBe(to);
    } else {
      expect(() => next(state, event)).toThrow(IllegalTransitionError);
      expect(() => next(state, event)).toThrow(`${event} is not allowed in state ${state}`);
    }
  });

  it('every state is reachable from waiting for input, and every state has a way back to it', () => {
    const reach = (from: MachineState): Set<MachineState> => {
      const seen = new Set<MachineState>([from]);
      for (let grew = true; grew;) {
        grew = false;
        for (const [s, e] of allowed) {
          const to = next(s, e);
          if (seen.has(s) && !seen.has(to)) {
            seen.add(to);
            grew = true;
          }
        }
      }
      return seen;
    };
    expect([...reach('AWAITING_INPUT')].sort()).toEqual([...MACHINE_STATES].sort());
    for (const s of MACHINE_STATES) expect(reach(s).has('AWAITING_INPUT')).toBe(true);
  });
});

describe('agent machine: what the user can count on', () => {
  it('the pause key works in every state that is not paused, and lands in PAUSED', () => {
    for (const s of MACHINE_STATES.filter((x) => x !== 'PAUSED')) {
      expect(target(s, 'PAUSE')).toBe('PAUSED');
    }
  });

  it('only the user starts the model thinking: a message, resume, or an approval answered', () => {
    const starters = new Set<MachineEvent>(['SUBMIT', 'RESUME', 'APPROVAL_DONE']);
    for (const [s, e] of allowed) {
      if (next(s, e) === 'THINKING') expect(starters, `${s} + ${e}`).toContain(e);
    }
    expect(target('AWAITING_INPUT', 'SUBMIT')).toBe('THINKING');
    expect(target('PAUSED', 'RESUME')).toBe('THINKING');
  });

  it('paused stays paused: only resume (or an approval to answer) leaves it', () => {
    for (const e of MACHINE_EVENTS) {
      const to = target('PAUSED', e);
      if (e === 'RESUME' || e === 'REQUEST_APPROVAL') expect(to).not.toBe('PAUSED');
      else if (to !== undefined) expect(to, `PAUSED + ${e}`).toBe('PAUSED');
    }
    // A message while paused is answered (an answering turn) without unpausing.
    expect(target('PAUSED', 'SUBMIT')).toBe('PAUSED');
  });

  it('an interrupt, [WAIT] or a limit never leaves the model thinking', () => {
    for (const e of ['INTERRUPT', 'WAIT', 'AUTO_PAUSE'] as const) {
      for (const s of MACHINE_STATES) expect(target(s, e)).not.toBe('THINKING');
    }
    expect(target('THINKING', 'INTERRUPT')).toBe('AWAITING_INPUT');
    expect(target('AWAITING_APPROVAL', 'INTERRUPT')).toBe('AWAITING_INPUT');
    expect(target('THINKING', 'WAIT')).toBe('AWAITING_INPUT');
  });

  it('a limit stops autonomy wherever the model may be running, and the agent ends paused', () => {
    for (const s of ['THINKING', 'PAUSED', 'AWAITING_APPROVAL'] as const) {
      expect(target(s, 'AUTO_PAUSE')).toBe('PAUSED');
    }
  });

  it('an approval prompt waits for its answer: no message or resume gets past it', () => {
    for (const e of ['SUBMIT', 'RESUME', 'WAIT', 'REQUEST_APPROVAL'] as const) {
      expect(can('AWAITING_APPROVAL', e), e).toBe(false);
    }
    expect(target('AWAITING_APPROVAL', 'APPROVAL_DONE')).toBe('THINKING');
    expect(target('AWAITING_APPROVAL', 'APPROVAL_DONE_PAUSED')).toBe('PAUSED');
  });

  it('an answer only comes to a question asked: approval events outside the prompt are refused', () => {
    for (const s of MACHINE_STATES.filter((x) => x !== 'AWAITING_APPROVAL')) {
      expect(can(s, 'APPROVAL_DONE'), s).toBe(false);
      expect(can(s, 'APPROVAL_DONE_PAUSED'), s).toBe(false);
    }
  });

  it('a tool call can ask for approval only while a turn runs, never from an idle prompt', () => {
    expect(target('THINKING', 'REQUEST_APPROVAL')).toBe('AWAITING_APPROVAL');
    expect(target('PAUSED', 'REQUEST_APPROVAL')).toBe('AWAITING_APPROVAL');
    expect(can('AWAITING_INPUT', 'REQUEST_APPROVAL')).toBe(false);
  });
});
