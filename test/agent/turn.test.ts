import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/api/events.js';
import type { TurnTrace } from '../../src/api/trace.js';
import type { HistoryMessage } from '../../src/core/messages.js';
import { createAlwaysOn } from '../../src/agent/alwaysOnWiring.js';
import { InputQueue } from '../../src/agent/inputQueue.js';
import { runTurn, TurnMemory, WRAP_UP_NOTE, type TurnDeps } from '../../src/agent/turn.js';
import { Reminders } from '../../src/reminders/reminders.js';
import { createRemindTool } from '../../src/tools/remind.js';
import { TokenCounter } from '../../src/memory/tokenCounter.js';
import type { Provider, ProviderEvent } from '../../src/providers/types.js';
import { createAgentStore } from '../../src/store/agentStore.js';
import { createFileTools } from '../../src/tools/files/index.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { SessionSafety } from '../../src/tools/sessionSafety.js';
import { Workspace } from '../../src/tools/workspace.js';
import { FAST_SETTINGS } from '../helpers/agentHarness.js';

/** A provider that plays one script per request and can act in the middle (to abort, say). */
function scripted(scripts: ProviderEvent[][], onEach?: (i: number) => void): Provider {
  return {
    id: 'fake',
    model: 'fake',
    async *stream({ signal }) {
      const events = scripts.shift() ?? [{ type: 'done', reason: 'stop' }];
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

const say = (text: string): ProviderEvent[] => [
  { type: 'text_delta', text },
  { type: 'done', reason: 'stop' },
];

describe('the turn', () => {
  let dir: string;
  let history: HistoryMessage[];
  let events: AgentEvent[];
  let memory: TurnMemory;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cogito-turn-'));
    history = [];
    events = [];
    memory = new TurnMemory();
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  /** The agent's parts for one turn, real ones, with the provider and any part replaced. */
  async function depsWith(over: Partial<TurnDeps>): Promise<TurnDeps> {
    const workspace = await Workspace.open(dir);
    const settings = { ...FAST_SETTINGS, approval: { ...FAST_SETTINGS.approval } };
    const { alwaysOn, ownWrites } = createAlwaysOn({ workspace, idleSkip: false }, () => settings);
    const store = createAgentStore({ machine: 'THINKING' });
    return {
      settings,
      provider: scripted([say('hello')]),
      history: { messages: () => history, append: (m) => (history.push(m), { ok: true }) },
      store,
      bus: {
        emit: (e) => {
          store.getState().apply(e);
          events.push(e);
        },
      },
      registry: new ToolRegistry(createFileTools()),
      workspace,
      secrets: [],
      safety: new SessionSafety([]),
      counter: new TokenCounter(),
      ownWrites,
      alwaysOn,
      inputs: new InputQueue(() => {}),
      approvals: { ask: async () => 'yes' },
      alwaysAllowed: new Set(),
      scheduler: { consecutiveFailures: 0, runUserTurn: () => {} },
      systemPrompt: () => 'You are a test.',
      ...over,
    };
  }

  /** Runs one turn; its trace (from `turn_end`) as `step:PHASE:outcome` rows. */
  async function turn(d: TurnDeps, trigger: 'timer' | 'user' = 'timer') {
    const report = await runTurn(trigger, d, memory);
    const end = events.find((e) => e.type === 'turn_end') as { trace: TurnTrace } | undefined;
    const trace = end!.trace;
    const rows = trace.phases.map((p) => `${p.step}:${p.phase}:${p.outcome}`);
    return { report, trace, rows };
  }

  it('one step walks every block in order, each timed', async () => {
    const { rows, trace } = await turn(await depsWith({}));
    expect(rows).toEqual([
      '1:RESTORE:next',
      '1:COMPACT:next',
      '1:COMMAND:next',
      '1:BUILD:next',
      '1:RUN:next',
      '1:SAVE:next',
      '1:RESPOND:next',
    ]);
    expect(trace.outcome).toBe('ok');
    expect(trace.phases.every((p) => p.durationMs >= 0 && p.startMs >= 0)).toBe(true);
    // The blocks follow one another: none starts before the one before it started.
    const starts = trace.phases.map((p) => p.startMs);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(history.map((m) => m.content)).toEqual(['hello']);
  });

  it('a tool step: the reply with a call is step 1, its result goes back at once in step 2', async () => {
    await writeFile(path.join(dir, 'a.txt'), 'alpha');
    const d = await depsWith({
      provider: scripted([say('[TOOL] read("a.txt") [/TOOL]'), say('It says alpha.')]),
    });
    const { rows, trace } = await turn(d);
    expect(rows).toEqual([
      '1:RESTORE:next',
      '1:COMPACT:next',
      '1:COMMAND:next',
      '1:BUILD:next',
      '1:RUN:next',
      '1:SAVE:next',
      '1:RESPOND:step',
      '2:BUILD:next',
      '2:RUN:next',
      '2:SAVE:next',
      '2:RESPOND:next',
    ]);
    expect(trace.steps).toBe(2);
    expect(history.map((m) => m.role)).toEqual(['assistant', 'tool', 'assistant']);
    expect(history[1]!.content).toContain('alpha');
  });

  it('an abort mid-stream: RUN ends aborted, SAVE keeps the part that came, RESPOND ends it', async () => {
    const d = await depsWith({});
    d.provider = scripted(
      [
        [
          { type: 'text_delta', text: 'part' },
          { type: 'text_delta', text: 'never' },
          { type: 'done', reason: 'stop' },
        ],
      ],
      (i) => i === 1 && memory.abort(),
    );
    const { rows, trace } = await turn(d);
    expect(rows).toEqual([
      '1:RESTORE:next',
      '1:COMPACT:next',
      '1:COMMAND:next',
      '1:BUILD:next',
      '1:RUN:aborted',
      '1:SAVE:next',
      '1:RESPOND:next',
    ]);
    expect(trace.outcome).toBe('aborted');
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ content: 'part', interrupted: true });
  });

  it('an abort before a block: that block is recorded aborted without running, then SAVE and RESPOND', async () => {
    let built = false;
    const d = await depsWith({
      compact: async () => (memory.abort(), undefined),
      systemPrompt: () => ((built = true), 'x'),
    });
    const { rows } = await turn(d);
    expect(rows).toEqual([
      '1:RESTORE:next',
      '1:COMPACT:next',
      '1:COMMAND:aborted',
      '1:SAVE:next',
      '1:RESPOND:next',
    ]);
    expect(built).toBe(false);
    expect(history).toEqual([]);
  });

  it('a command: COMMAND handles the turn, no request, nothing saved, no RESPOND', async () => {
    let requested = false;
    const ran: string[] = [];
    const d = await depsWith({
      provider: {
        id: 'f',
        model: 'f',
        stream: () => (
          (requested = true),
          scripted([]).stream({ messages: [], signal: new AbortController().signal })
        ),
      },
      commands: async (text) => (ran.push(text), { after: 'keep' }),
    });
    d.inputs.push('/help');
    const { rows, trace } = await turn(d, 'user');
    expect(rows).toEqual(['1:RESTORE:next', '1:COMPACT:next', '1:COMMAND:shortcut']);
    expect(trace.outcome).toBe('command');
    expect(ran).toEqual(['/help']);
    expect(requested).toBe(false);
    expect(history).toEqual([]);
  });

  it('a provider error past its tries: RUN ends in error, the partial reply is saved marked failed, and reported', async () => {
    const d = await depsWith({
      // One try allowed: the first failure is the last.
      settings: { ...FAST_SETTINGS, maxConsecutiveFailures: 1 },
      provider: scripted([
        [
          { type: 'text_delta', text: 'half a rep' },
          {
            type: 'done',
            reason: 'error',
            error: { kind: 'network', message: 'the connection dropped mid-reply' },
          },
        ],
      ]),
    });
    const { rows, report, trace } = await turn(d);
    expect(rows).toEqual([
      '1:RESTORE:next',
      '1:COMPACT:next',
      '1:COMMAND:next',
      '1:BUILD:next',
      '1:RUN:error',
      '1:SAVE:next',
      '1:RESPOND:next',
    ]);
    expect(trace.outcome).toBe('error');
    expect(report.failed).toBe(true);
    expect(history[0]).toMatchObject({ content: 'half a rep', failed: true });
    expect(events.find((e) => e.type === 'error')).toMatchObject({ error: { kind: 'network' } });
  });

  it('a transient error is retried in the same step: the same request again, the broken try dropped', async () => {
    const sent: unknown[] = [];
    const inner = scripted([
      [
        { type: 'text_delta', text: 'half a rep' },
        { type: 'done', reason: 'error', error: { kind: 'network', message: 'dropped' } },
      ],
      [{ type: 'done', reason: 'error', error: { kind: 'server', message: 'HTTP 500' } }],
      say('whole reply'),
    ]);
    const provider: Provider = {
      ...inner,
      stream: (req) => (sent.push(JSON.stringify(req.messages)), inner.stream(req)),
    };
    const d = await depsWith({ provider });
    d.inputs.push('the question');
    const { rows, report, trace } = await turn(d, 'user');
    expect(rows).toEqual([
      '1:RESTORE:next',
      '1:COMPACT:next',
      '1:COMMAND:next',
      '1:BUILD:next',
      '1:RUN:next',
      '1:SAVE:next',
      '1:RESPOND:next',
    ]);
    expect(trace.outcome).toBe('ok');
    expect(report.failed).toBe(false);
    // Three tries of one request, byte for byte: the user's question, as the user's.
    expect(sent).toHaveLength(3);
    expect(new Set(sent).size).toBe(1);
    expect(String(sent[0])).toContain('the question');
    expect(String(sent[0])).not.toContain('not here');
    // The broken try is not kept; no error is reported, each retry is told.
    expect(history.map((m) => m.content)).toEqual(['the question', 'whole reply']);
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
    const retries = events.filter((e) => e.type === 'retrying');
    expect(retries.map((e) => e.attempt)).toEqual([2, 3]);
    expect(retries[0]!.text).toMatch(/dropped; retrying in .* \(try 2 of 5\)/);
  });

  it('an abort during the back-off wait ends the turn at once, with nothing saved of the broken try', async () => {
    const d = await depsWith({
      settings: { ...FAST_SETTINGS, backoff: { baseMs: 60_000, maxMs: 60_000 } },
      provider: scripted([
        [
          { type: 'text_delta', text: 'half' },
          { type: 'done', reason: 'error', error: { kind: 'network', message: 'dropped' } },
        ],
      ]),
      bus: {
        emit: (e) => {
          d.store.getState().apply(e);
          events.push(e);
          if (e.type === 'retrying') queueMicrotask(() => memory.abort());
        },
      },
    });
    const started = performance.now();
    const { rows, trace } = await turn(d);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(rows).toContain('1:RUN:aborted');
    expect(trace.outcome).toBe('aborted');
    expect(history).toEqual([]);
  });

  it('a request that never reached the server costs no tokens and gives its cycle back', async () => {
    const unsent = {
      kind: 'network' as const,
      message: 'could not connect (connection refused)',
      unsent: true as const,
    };
    const d = await depsWith({
      settings: { ...FAST_SETTINGS, maxConsecutiveFailures: 2 },
      provider: scripted([
        [{ type: 'done', reason: 'error', error: unsent }],
        [{ type: 'done', reason: 'error', error: unsent }],
      ]),
    });
    const { report } = await turn(d, 'timer');
    expect(report.failed).toBe(true);
    expect(memory.cycle).toBe(0);
    expect(events.filter((e) => e.type === 'usage')).toEqual([]);
    expect(events.find((e) => e.type === 'turn_end')).toMatchObject({ cycle: 0 });
    expect(d.store.getState().cycle).toBe(0);
  });

  it('a chain whose calls find nothing new twice gets one wrap-up request and ends', async () => {
    const remind = (n: number) => say(`[TOOL] remind("in 1 hour", "check ${n}") [/TOOL]`);
    const sent: string[] = [];
    const inner = scripted([remind(1), remind(2), remind(3), remind(4), remind(5)]);
    const provider: Provider = {
      ...inner,
      stream: (req) => (sent.push(JSON.stringify(req.messages)), inner.stream(req)),
    };
    const registry = new ToolRegistry([
      ...createFileTools(),
      createRemindTool(new Reminders(), Date.now),
    ]);
    const d = await depsWith({ provider, registry });
    const { trace } = await turn(d);
    expect(trace.steps).toBe(3);
    expect(sent).toHaveLength(3);
    expect(sent[2]).toContain(WRAP_UP_NOTE.slice(1, 30));
    expect(sent[1]).not.toContain(WRAP_UP_NOTE.slice(1, 30));
    // Nothing paused: the chain just ended.
    expect(d.store.getState().machine).toBe('THINKING');
  });

  it('a chain whose calls keep finding something goes on', async () => {
    for (const n of [1, 2, 3, 4]) await writeFile(path.join(dir, `f${n}.txt`), `file ${n}`);
    const read = (n: number) => say(`[TOOL] read("f${n}.txt") [/TOOL]`);
    const d = await depsWith({
      provider: scripted([read(1), read(2), read(3), read(4), say('Four files.')]),
    });
    const { trace } = await turn(d);
    expect(trace.steps).toBe(5);
    expect(history.at(-1)!.content).toBe('Four files.');
  });

  it('a block that throws is the step error, never a throw out of the turn', async () => {
    const d = await depsWith({
      systemPrompt: () => {
        throw new Error('boom');
      },
    });
    const { rows, report, trace } = await turn(d);
    expect(rows).toEqual([
      '1:RESTORE:next',
      '1:COMPACT:next',
      '1:COMMAND:next',
      '1:BUILD:error',
      '1:SAVE:next',
      '1:RESPOND:next',
    ]);
    expect(trace.phases.find((p) => p.phase === 'BUILD')?.note).toBe('boom');
    expect(report.failed).toBe(true);
    expect(events.find((e) => e.type === 'error')).toMatchObject({
      error: { message: 'BUILD failed: boom' },
    });
  });

  it('a crash record that cannot be finished fails RESTORE: no request is built', async () => {
    let built = false;
    const d = await depsWith({
      restore: async () => {
        throw new Error('journal unreadable');
      },
      systemPrompt: () => ((built = true), 'x'),
    });
    const { rows } = await turn(d);
    expect(rows).toEqual(['1:RESTORE:error', '1:SAVE:next', '1:RESPOND:next']);
    expect(built).toBe(false);
  });

  it('a request over the budget is not sent: BUILD goes straight to RESPOND, which pauses', async () => {
    const d = await depsWith({});
    // The test's own settings object, which the budget reads (an agent replaces its frozen value).
    (d.settings as { tokenBudgetPerHour: number }).tokenBudgetPerHour = 1;
    const { rows, trace } = await turn(d);
    expect(rows).toEqual([
      '1:RESTORE:next',
      '1:COMPACT:next',
      '1:COMMAND:next',
      '1:BUILD:shortcut',
      '1:RESPOND:next',
    ]);
    expect(trace.outcome).toBe('blocked');
    expect(d.store.getState().machine).toBe('PAUSED');
  });

  it('the user turn saves the queued messages before BUILD, in history order', async () => {
    const d = await depsWith({});
    d.inputs.push('one');
    d.inputs.push('two');
    await turn(d, 'user');
    expect(history.map((m) => [m.role, m.content])).toEqual([
      ['user', 'one'],
      ['user', 'two'],
      ['assistant', 'hello'],
    ]);
  });

  it('a tool call has one id: the tool events, the saved call part and its result', async () => {
    await writeFile(path.join(dir, 'a.txt'), 'alpha');
    const d = await depsWith({
      provider: scripted([say('[TOOL] read("a.txt") [/TOOL]'), say('ok')]),
    });
    await turn(d);
    const reply = history[0]!;
    const part = reply.parts?.items.find((p) => p.type === 'call');
    const ends = events.filter((e) => e.type === 'tool_start' || e.type === 'tool_end');
    expect(part?.id).toBe(`${reply.id}#0`);
    expect(ends.map((e) => ('entry' in e ? e.entry.callId : ''))).toEqual([part!.id, part!.id]);
    expect(history[1]).toMatchObject({ role: 'tool', callId: part!.id });
    expect(await readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('alpha');
  });
});
