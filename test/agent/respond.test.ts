/** RESPOND's policy, bare: a pure function of the turn's facts and the guards' counts. */
import { describe, expect, it } from 'vitest';
import { respond, type RespondGuards } from '../../src/agent/respond.js';
import type { TurnFacts } from '../../src/agent/respond.js';

const facts = (over: Partial<TurnFacts> = {}): TurnFacts => ({
  turnId: 7,
  step: 1,
  outcome: 'ok',
  wait: false,
  reply: 'r',
  calls: [],
  results: [],
  tokens: { total: 10 },
  ...over,
});

const guards = (over: Partial<RespondGuards> = {}): RespondGuards => ({
  lang: 'en',
  maxAutonomousCycles: 0,
  maxConsecutiveFailures: 3,
  failures: 0,
  cycle: 1,
  recentCalls: [],
  redact: (text) => text.replaceAll('sk-secret', '[redacted]'),
  ...over,
});

const network = { kind: 'network', message: 'reset by sk-secret' };

describe('respond(facts, guards)', () => {
  it.each([
    ['an ok turn goes on and counts its tokens', facts(), guards(), undefined, true, false],
    ['[WAIT] listens', facts({ wait: true }), guards(), 'WAIT', true, false],
    [
      'the cycle limit pauses',
      facts(),
      guards({ maxAutonomousCycles: 2, cycle: 2 }),
      'AUTO_PAUSE',
      true,
      false,
    ],
    [
      'the third same call in a row pauses (loop guard)',
      facts({ calls: ['ls(".")'] }),
      guards({ recentCalls: ['ls(".")', 'ls(".")'] }),
      'AUTO_PAUSE',
      true,
      false,
    ],
    [
      'a transient error backs off',
      facts({ outcome: 'error', error: network }),
      guards(),
      undefined,
      false,
      true,
    ],
    [
      'too many errors in a row pause',
      facts({ outcome: 'error', error: network }),
      guards({ failures: 2 }),
      'AUTO_PAUSE',
      false,
      true,
    ],
    [
      'a transient error whose tries in the turn were used up pauses',
      facts({ outcome: 'error', error: network, failedTries: 3 }),
      guards(),
      'AUTO_PAUSE',
      false,
      true,
    ],
    [
      'an error retrying cannot fix pauses at once',
      facts({ outcome: 'error', error: { kind: 'auth', message: 'bad key' } }),
      guards(),
      'AUTO_PAUSE',
      false,
      true,
    ],
    [
      'a blocked turn pauses with the budget reason',
      facts({ outcome: 'blocked', blocked: 'budget' }),
      guards(),
      'AUTO_PAUSE',
      false,
      false,
    ],
    [
      'a failed history write pauses',
      facts({ saveFailed: 'disk full' }),
      guards(),
      'AUTO_PAUSE',
      false,
      false,
    ],
    [
      'an aborted turn decides nothing',
      facts({ outcome: 'aborted' }),
      guards(),
      undefined,
      false,
      false,
    ],
    ['a command decides nothing', facts({ outcome: 'command' }), guards(), undefined, false, false],
  ] as const)('%s', (_name, f, g, event, countTokens, failed) => {
    const r = respond(f, g);
    expect(r.event).toBe(event);
    expect(r.countTokens).toBe(countTokens);
    expect(r.report.failed).toBe(failed);
    if (event === 'AUTO_PAUSE') expect(r.reason).toBeTruthy();
    else expect(r.reason).toBeUndefined();
  });

  it('a reply with calls goes on at once with the next step; one without ends the turn', () => {
    expect(respond(facts({ calls: ['ls(".")'] }), guards()).more).toBe(true);
    expect(respond(facts(), guards()).more).toBe(false);
    expect(respond(facts({ calls: ['ls(".")'], wait: true }), guards()).more).toBe(false);
    expect(respond(facts({ calls: ['ls(".")'], outcome: 'aborted' }), guards()).more).toBe(false);
    // The cycle limit counts turns: it waits for the end of the chain.
    const limited = guards({ maxAutonomousCycles: 2, cycle: 2 });
    expect(respond(facts({ calls: ['ls(".")'] }), limited)).toMatchObject({ more: true });
    expect(respond(facts({ calls: ['ls(".")'] }), limited).event).toBeUndefined();
  });

  it('a chain whose calls found nothing new twice in a row gets one wrap-up step, then ends without a pause', () => {
    const once = respond(facts({ calls: ['remind()'], staleSteps: 1 }), guards());
    expect(once).toMatchObject({ more: true, wrapUp: false });
    const twice = respond(facts({ calls: ['remind()'], staleSteps: 2, step: 2 }), guards());
    expect(twice).toMatchObject({ more: true, wrapUp: true });
    const wrapped = respond(
      facts({ calls: ['remind()'], staleSteps: 3, step: 3, wrappedUp: true }),
      guards(),
    );
    expect(wrapped).toMatchObject({ more: false, wrapUp: false, countTokens: true });
    expect(wrapped.event).toBeUndefined();
    // The step cap stays the last guard: it pauses before any wrap-up.
    const capped = respond(
      facts({ calls: ['x()'], staleSteps: 2, step: 3 }),
      guards({ maxStepsPerTurn: 3 }),
    );
    expect(capped).toMatchObject({ more: false, wrapUp: false, event: 'AUTO_PAUSE' });
  });

  it('the step limit ends a runaway chain with a pause that names maxStepsPerTurn', () => {
    const g = guards({ maxStepsPerTurn: 3 });
    expect(respond(facts({ calls: ['a()'], step: 2 }), g).more).toBe(true);
    const stopped = respond(facts({ calls: ['b()'], step: 3 }), g);
    expect(stopped).toMatchObject({ more: false, event: 'AUTO_PAUSE', countTokens: true });
    expect(stopped.reason).toContain('limit of 3 requests in one tool chain (maxStepsPerTurn)');
    // The default is 25.
    expect(respond(facts({ calls: ['c()'], step: 24 }), guards()).more).toBe(true);
    expect(respond(facts({ calls: ['c()'], step: 25 }), guards()).event).toBe('AUTO_PAUSE');
  });

  it('reasons say why, in the turn language', () => {
    expect(respond(facts({ outcome: 'blocked', blocked: 'the budget' }), guards()).reason).toBe(
      'the budget',
    );
    expect(respond(facts(), guards({ maxAutonomousCycles: 2, cycle: 2 })).reason).toContain(
      'maxAutonomousCycles',
    );
    expect(respond(facts({ saveFailed: 'disk full' }), guards()).reason).toContain('disk full');
  });

  it('an error is reported redacted, with its retry hint for the scheduler', () => {
    const error = { kind: 'rate_limit', message: 'slow down sk-secret', retryAfterMs: 1500 };
    const r = respond(facts({ outcome: 'error', error }), guards());
    expect(r.errors).toEqual([
      { type: 'error', turnId: 7, error: { ...error, message: 'slow down [redacted]' } },
    ]);
    expect(r.report).toEqual({ failed: true, retryAfterMs: 1500 });
  });

  it('a failed history write is reported as a history_write error', () => {
    const r = respond(facts({ saveFailed: 'disk full' }), guards());
    expect(r.errors).toEqual([
      { type: 'error', error: { kind: 'history_write', message: 'disk full' } },
    ]);
  });

  it("the loop guard's memory is data: kept, extended, and emptied once it fires", () => {
    const g = guards({ recentCalls: ['a()'] });
    expect(respond(facts({ calls: ['b()'] }), g).recentCalls).toEqual(['a()', 'b()']);
    expect(g.recentCalls).toEqual(['a()']);
    const fired = respond(facts({ calls: ['a()', 'a()'] }), g);
    expect(fired.event).toBe('AUTO_PAUSE');
    expect(fired.recentCalls).toEqual([]);
    // A turn that did not go through leaves the memory as it was.
    expect(respond(facts({ outcome: 'aborted', calls: ['a()'] }), g).recentCalls).toEqual(['a()']);
  });

  it('is pure: the same facts and guards give the same decision', () => {
    const f = facts({ calls: ['ls(".")'] });
    const g = guards({ recentCalls: ['ls(".")'] });
    expect(respond(f, g)).toEqual(respond(f, g));
  });
});
