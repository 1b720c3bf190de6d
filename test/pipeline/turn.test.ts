import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/api/events.js';
import type { HistoryMessage } from '../../src/core/messages.js';
import { PHASE_TRANSITIONS, nextPhase } from '../../src/pipeline/phases.js';
import { PHASES, type Phase, type PhaseOutcome } from '../../src/api/trace.js';
import { runTurn, type TurnDeps, type TurnInput } from '../../src/pipeline/turn.js';
import type { Provider, ProviderEvent } from '../../src/providers/types.js';
import { createFileTools } from '../../src/tools/files/index.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { Workspace } from '../../src/tools/workspace.js';

describe('the phase table', () => {
  const OUTCOMES: PhaseOutcome[] = ['next', 'shortcut', 'step', 'aborted', 'error'];

  // Not a copy of the table: properties any correct table has. The turn's behaviour along
  // each edge is driven through runTurn below.
  it('whatever each phase reports, a turn reaches DONE, and only a new step goes back', () => {
    const walk = (phase: Phase, seen: readonly Phase[]): void => {
      if (phase === 'DONE') return;
      expect(seen, `${seen.join(' > ')} > ${phase}`).not.toContain(phase);
      for (const outcome of OUTCOMES) {
        const to = PHASE_TRANSITIONS[phase][outcome];
        if (to === undefined) {
          expect(() => nextPhase(phase, outcome)).toThrow(/illegal phase transition/);
        } else if (outcome !== 'step') {
          walk(to, [...seen, phase]);
        }
      }
    };
    walk(PHASES[0], []);
  });

  it('an abort or a failure before SAVE still goes through SAVE, and SAVE and RESPOND always go on', () => {
    for (const phase of PHASES.slice(0, PHASES.indexOf('SAVE'))) {
      for (const outcome of ['aborted', 'error'] as const) {
        expect(nextPhase(phase, outcome), `${phase} --${outcome}-->`).toBe('SAVE');
      }
    }
    for (const phase of ['SAVE', 'RESPOND'] as const) {
      for (const outcome of ['next', 'aborted', 'error'] as const) {
        expect(() => nextPhase(phase, outcome)).not.toThrow();
      }
    }
  });
});

/** A provider that plays events and can call back in the middle (to abort, say). */
function scripted(events: ProviderEvent[], onEach?: (i: number) => void): Provider {
  return {
    id: 'fake',
    model: 'fake',
    async *stream({ signal }) {
      for (let i = 0; i < events.length; i++) {
        onEach?.(i);
        if (signal.aborted) {
          yield { type: 'done', reason: 'aborted' };
          return;
        }
        yield events[i]!;
      }
    },
  };
}

describe('runTurn', () => {
  let dir: string;
  let history: HistoryMessage[];
  let events: AgentEvent[];
  let controller: AbortController;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cogito-turn-'));
    history = [];
    events = [];
    controller = new AbortController();
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  async function turn(over: Partial<TurnDeps> = {}, input: Partial<TurnInput> = {}) {
    const registry = new ToolRegistry(createFileTools());
    const deps: TurnDeps = {
      provider: () =>
        scripted([
          { type: 'text_delta', text: 'hello' },
          { type: 'done', reason: 'stop' },
        ]),
      history: { messages: () => history, append: (m) => (history.push(m), { ok: true }) },
      workspace: await Workspace.open(dir),
      tools: {
        registry,
        policy: () => 'auto',
        askApproval: async () => 'yes',
        alwaysAllowed: new Set(),
        resultBudgetChars: 1000,
      },
      emit: (e) => events.push(e),
      buildRequest: () => ({ messages: [{ role: 'user', content: 'hi' }], promptTokens: 1 }),
      countTokens: (t) => t.length,
      ...over,
    };
    return runTurn(
      { turnId: 1, trigger: 'user', signal: controller.signal, cycle: 0, ...input },
      deps,
    );
  }

  const phasesOf = (r: Awaited<ReturnType<typeof turn>>) =>
    r.trace.phases.map((p) => `${p.phase}:${p.outcome}`);

  it('walks every phase in order and keeps a trace', async () => {
    const r = await turn();
    expect(r.outcome).toBe('ok');
    expect(phasesOf(r)).toEqual([
      'RESTORE:next',
      'COMPACT:next',
      'COMMAND:next',
      'BUILD:next',
      'RUN:next',
      'SAVE:next',
      'RESPOND:next',
    ]);
    expect(r.trace.phases.every((p) => p.durationMs >= 0 && p.startMs >= 0)).toBe(true);
    expect(history.map((m) => m.content)).toEqual(['hello']);
  });

  it('a reply with calls is one step: RESPOND sends the results back at once, in the same turn', async () => {
    await writeFile(path.join(dir, 'a.txt'), 'alpha');
    const replies: ProviderEvent[][] = [
      [
        { type: 'text_delta', text: '[TOOL] read("a.txt") [/TOOL]' },
        { type: 'done', reason: 'stop' },
      ],
      [
        { type: 'text_delta', text: '[TOOL] create("b.txt", "beta") [/TOOL]' },
        { type: 'done', reason: 'stop' },
      ],
      [
        { type: 'text_delta', text: 'Done.' },
        { type: 'done', reason: 'stop' },
      ],
    ];
    const built: number[] = [];
    const steps: number[] = [];
    const r = await turn({
      provider: () => scripted(replies.shift()!),
      buildRequest: (_h, _t, step) => (
        built.push(step),
        { messages: [{ role: 'user', content: 'hi' }], promptTokens: 1 }
      ),
      respond: (facts) => (
        steps.push(facts.step),
        { report: { failed: false }, more: facts.calls.length > 0 }
      ),
    });
    expect(built).toEqual([1, 2, 3]);
    expect(steps).toEqual([1, 2, 3]);
    expect(r.trace.steps).toBe(3);
    // The turn as a whole: both calls, and RESTORE once, COMPACT to RESPOND per step.
    expect(r.calls).toEqual(['read(["a.txt"])', 'create(["b.txt","beta"])']);
    const trace = r.trace.phases.map((p) => `${p.step}:${p.phase}:${p.outcome}`);
    expect(trace.filter((p) => p.endsWith('RESTORE:next'))).toEqual(['1:RESTORE:next']);
    expect(trace.filter((p) => p.includes('RESPOND'))).toEqual([
      '1:RESPOND:step',
      '2:RESPOND:step',
      '3:RESPOND:next',
    ]);
    expect(trace.filter((p) => p.includes('COMPACT'))).toEqual([
      '1:COMPACT:next',
      '2:COMPACT:next',
      '3:COMPACT:next',
    ]);
    expect(history.map((m) => m.role)).toEqual([
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(await readFile(path.join(dir, 'b.txt'), 'utf8')).toBe('beta');
  });

  it('an abort between steps ends the turn without another request', async () => {
    let requests = 0;
    const r = await turn({
      provider: () => {
        requests += 1;
        return scripted([
          { type: 'text_delta', text: '[TOOL] ls(".") [/TOOL]' },
          { type: 'done', reason: 'stop' },
        ]);
      },
      respond: (facts) => {
        if (facts.step === 2) controller.abort();
        return { report: { failed: false }, more: facts.outcome === 'ok' };
      },
    });
    expect(requests).toBe(2);
    expect(r.outcome).toBe('aborted');
    expect(r.trace.phases.at(-1)).toMatchObject({ phase: 'RESPOND', step: 3, outcome: 'next' });
  });

  it('a command short-cuts from COMMAND to DONE, without a model call or a save', async () => {
    let called = false;
    const r = await turn({
      takeInput: () => ({ command: '/help', messages: [] }),
      runCommand: async () => {},
      provider: () => ((called = true), scripted([])),
    });
    expect(r.outcome).toBe('command');
    expect(phasesOf(r)).toEqual(['RESTORE:next', 'COMPACT:next', 'COMMAND:shortcut']);
    expect(called).toBe(false);
    expect(history).toEqual([]);
  });

  it('a request over budget is not sent: BUILD goes straight to RESPOND, which hears why', async () => {
    let called = false;
    let heard: string | undefined;
    const r = await turn({
      preflight: (tokens) => (tokens > 0 ? 'the hourly token budget' : undefined),
      provider: () => ((called = true), scripted([])),
      respond: (facts) => {
        heard = facts.blocked;
        return { report: { failed: false }, more: false };
      },
    });
    expect(r.outcome).toBe('blocked');
    expect(phasesOf(r)).toEqual([
      'RESTORE:next',
      'COMPACT:next',
      'COMMAND:next',
      'BUILD:shortcut',
      'RESPOND:next',
    ]);
    expect(called).toBe(false);
    expect(heard).toBe('the hourly token budget');
    expect(history).toEqual([]);
  });

  it.each(['RESTORE', 'COMPACT', 'BUILD', 'RUN'] as const)(
    'an abort during %s goes through SAVE and RESPOND',
    async (where) => {
      const abort = (): void => controller.abort();
      const over: Partial<TurnDeps> = {};
      if (where === 'RESTORE') controller.abort();
      if (where === 'COMPACT') over.compact = async () => abort();
      if (where === 'BUILD') over.buildRequest = () => (abort(), { messages: [], promptTokens: 0 });
      if (where === 'RUN')
        over.provider = () =>
          scripted(
            [
              { type: 'text_delta', text: 'part' },
              { type: 'text_delta', text: 'never' },
              { type: 'done', reason: 'stop' },
            ],
            (i) => i === 1 && abort(),
          );
      const r = await turn(over);
      expect(r.outcome).toBe('aborted');
      const seq = phasesOf(r);
      expect(seq.slice(-2)).toEqual(['SAVE:next', 'RESPOND:next']);
      const at = seq.findIndex((s) => s.startsWith(`${where}:`));
      // The phase that saw the abort is the last before SAVE unless it finished first.
      expect(seq.slice(at + 1, -2).every((s) => s.endsWith(':aborted'))).toBe(true);
      if (where === 'RUN') {
        expect(history).toHaveLength(1);
        expect(history[0]).toMatchObject({ content: 'part', interrupted: true });
      } else {
        expect(history).toEqual([]);
      }
    },
  );

  it('an exception in a phase becomes an error result, never a throw, and the turn still saves', async () => {
    const r = await turn({
      buildRequest: () => {
        throw new Error('boom');
      },
    });
    expect(r.outcome).toBe('error');
    expect(r.error?.message).toMatch(/BUILD failed: boom/);
    expect(phasesOf(r)).toEqual([
      'RESTORE:next',
      'COMPACT:next',
      'COMMAND:next',
      'BUILD:error',
      'SAVE:next',
      'RESPOND:next',
    ]);
  });

  it('RESTORE finishes the crash record first, then saves the queued user messages before BUILD', async () => {
    const order: string[] = [];
    let built: string[] = [];
    const r = await turn({
      recover: async () => void order.push('recover'),
      takeInput: () => (order.push('take'), { messages: ['one', 'two'] }),
      buildRequest: (h) => {
        built = h.map((m) => m.content);
        return { messages: [{ role: 'user', content: 'hi' }], promptTokens: 1 };
      },
    });
    expect(r.outcome).toBe('ok');
    expect(order).toEqual(['recover', 'take']);
    expect(built).toEqual(['one', 'two']);
    // The user's messages, then the reply: one saver writes them all, in history order.
    expect(history.map((m) => [m.role, m.content])).toEqual([
      ['user', 'one'],
      ['user', 'two'],
      ['assistant', 'hello'],
    ]);
    expect(events.filter((e) => e.type === 'message_added')).toHaveLength(3);
  });

  it('a crash record that cannot be finished fails RESTORE: no request is built', async () => {
    let built = false;
    const r = await turn({
      recover: async () => {
        throw new Error('journal unreadable');
      },
      buildRequest: () => ((built = true), { messages: [], promptTokens: 0 }),
    });
    expect(phasesOf(r)).toEqual(['RESTORE:error', 'SAVE:next', 'RESPOND:next']);
    expect(r.error?.message).toMatch(/RESTORE failed: journal unreadable/);
    expect(built).toBe(false);
  });

  it('RESPOND decides inside the pipeline, after SAVE, and its report is the turn result', async () => {
    let seen: { outcome: string; reply: string; saved: number } | undefined;
    const r = await turn({
      respond: (facts) => {
        seen = { outcome: facts.outcome, reply: facts.reply, saved: history.length };
        return { report: { failed: true, retryAfterMs: 5 }, more: false };
      },
    });
    expect(seen).toEqual({ outcome: 'ok', reply: 'hello', saved: 1 });
    expect(r.report).toEqual({ failed: true, retryAfterMs: 5 });
    expect(phasesOf(r).at(-1)).toBe('RESPOND:next');
  });

  it('the turn counts its own tokens: reported usage, or the estimate', async () => {
    const reported = await turn({
      provider: () =>
        scripted([
          { type: 'text_delta', text: 'hi' },
          { type: 'usage', usage: { promptTokens: 40, completionTokens: 2, totalTokens: 42 } },
          { type: 'done', reason: 'stop' },
        ]),
    });
    expect(reported.tokens).toEqual({ total: 42, context: 40 });
    // No usage from the server: the estimate (prompt 1 + 'hello' counted as 5).
    expect((await turn()).tokens).toEqual({ total: 6, context: 1 });
  });

  it('a provider error keeps the partial reply, marked failed, and reports the error', async () => {
    const r = await turn({
      provider: () =>
        scripted([
          { type: 'text_delta', text: 'half a rep' },
          {
            type: 'done',
            reason: 'error',
            error: { kind: 'network', message: 'the connection dropped mid-reply' },
          },
        ]),
    });
    expect(r.outcome).toBe('error');
    expect(r.error).toMatchObject({ kind: 'network' });
    expect(history[0]).toMatchObject({ content: 'half a rep', failed: true });
    expect(events.some((e) => e.type === 'usage' && e.estimated)).toBe(true);
  });
});
