import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryMessage } from '../../src/core/messages.js';
import { runTurn, type TurnDeps, type TurnFacts } from '../../src/pipeline/turn.js';
import type { Provider, ProviderEvent } from '../../src/providers/types.js';
import { createFileTools } from '../../src/tools/files/index.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { Workspace } from '../../src/tools/workspace.js';

/** A provider that plays each request's events in turn, and may throw after them. */
function replies(script: { events: ProviderEvent[]; throws?: string }[]): Provider {
  return {
    id: 'fake',
    model: 'fake',
    async *stream() {
      const next = script.shift()!;
      for (const ev of next.events) yield ev;
      if (next.throws) throw new Error(next.throws);
    },
  };
}

// What each phase hands on reaches the phases after it, across steps and failures.
describe('the values a turn passes between phases', () => {
  let dir: string;
  let history: HistoryMessage[];

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cogito-values-'));
    history = [];
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  async function turn(over: Partial<TurnDeps>, signal = new AbortController().signal) {
    const deps: TurnDeps = {
      provider: () => replies([]),
      history: { messages: () => history, append: (m) => (history.push(m), { ok: true }) },
      workspace: await Workspace.open(dir),
      tools: {
        registry: new ToolRegistry(createFileTools()),
        policy: () => 'auto',
        askApproval: async () => 'yes',
        alwaysAllowed: new Set(),
        resultBudgetChars: 1000,
      },
      emit: () => {},
      buildRequest: () => ({ messages: [{ role: 'user', content: 'hi' }], promptTokens: 1 }),
      countTokens: (t) => t.length,
      ...over,
    };
    return runTurn({ turnId: 1, trigger: 'user', signal, cycle: 0 }, deps);
  }

  it('a stream that throws part-way still hands SAVE what came: kept, marked failed, the error named', async () => {
    const provider = replies([
      { events: [{ type: 'text_delta', text: 'half of it' }], throws: 'socket hang up' },
    ]);
    const r = await turn({ provider: () => provider });
    expect(r.outcome).toBe('error');
    expect(r.error).toEqual({ kind: 'internal', message: 'RUN failed: socket hang up' });
    expect(r.trace.phases.find((p) => p.phase === 'RUN')).toMatchObject({
      outcome: 'error',
      note: 'socket hang up',
    });
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ content: 'half of it', failed: true });
  });

  it('a later step blocked by a budget keeps the context size the step before reported', async () => {
    await writeFile(path.join(dir, 'a.txt'), 'alpha');
    const provider = replies([
      {
        events: [
          { type: 'text_delta', text: '[TOOL] read("a.txt") [/TOOL]' },
          { type: 'usage', usage: { promptTokens: 70, completionTokens: 5, totalTokens: 75 } },
          { type: 'done', reason: 'stop' },
        ],
      },
    ]);
    const heard: TurnFacts[] = [];
    const r = await turn({
      provider: () => provider,
      buildRequest: (_h, _t, step) => ({ messages: [], promptTokens: step * 100 }),
      // The second request would pass the budget: it is not sent.
      preflight: (tokens) => (tokens > 150 ? 'the hourly token budget' : undefined),
      respond: (facts) => (
        heard.push(facts),
        { report: { failed: false }, more: facts.calls.length > 0 }
      ),
    });
    expect(heard.map((f) => [f.step, f.outcome, f.tokens])).toEqual([
      [1, 'ok', { total: 75, context: 70 }],
      [2, 'blocked', { total: 0, context: 70 }],
    ]);
    expect(r.outcome).toBe('blocked');
    expect(r.blocked).toBe('the hourly token budget');
    expect(r.tokens).toEqual({ total: 75, context: 70 });
    expect(r.calls).toEqual(['read(["a.txt"])']);
    expect(
      r.trace.phases.filter((p) => p.step === 2).map((p) => `${p.phase}:${p.outcome}`),
    ).toEqual(['COMPACT:next', 'COMMAND:next', 'BUILD:shortcut', 'RESPOND:next']);
  });

  // /pause and /stop abort the turn they run in: still a command's turn, and nothing follows.
  it('a slash command that stops its own turn still handles it: COMMAND goes to DONE, no request', async () => {
    const controller = new AbortController();
    let requested = false;
    let responded = false;
    const r = await turn(
      {
        takeInput: () => ({ command: '/stop', messages: [] }),
        runCommand: async () => controller.abort(),
        provider: () => ((requested = true), replies([])),
        respond: () => ((responded = true), { report: { failed: false }, more: false }),
      },
      controller.signal,
    );
    expect(r.outcome).toBe('command');
    expect(r.report).toEqual({ failed: false });
    expect(r.trace.phases.map((p) => `${p.phase}:${p.outcome}`)).toEqual([
      'RESTORE:next',
      'COMPACT:next',
      'COMMAND:shortcut',
    ]);
    expect(requested).toBe(false);
    expect(responded).toBe(false);
    expect(history).toEqual([]);
  });
});
