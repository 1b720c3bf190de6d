/**
 * A stand-in for the agent's side of the slash commands: a plain {@link CommandContext} that
 * records every verb a command calls and what it said, so a command runs as a unit test
 * with no agent, store or server behind it.
 */
import type { CommandContext, Spending } from '../../src/commands/context.js';
import { defaultConfig, type ConfigInput } from '../../src/config/schema.js';
import type { HistoryMessage } from '../../src/core/messages.js';
import type { Session, SessionInfo } from '../../src/history/index.js';
import type { CycleRecord } from '../../src/api/ledger.js';
import type { Persona } from '../../src/personas/load.js';
import type { TurnTrace } from '../../src/api/trace.js';
import type { Provider } from '../../src/providers/types.js';
import type { Reminder } from '../../src/reminders/reminders.js';
import type { Tool, ToolApprovalPolicy, ToolKind } from '../../src/tools/types.js';
import type { Workspace } from '../../src/tools/workspace.js';

/** A verb the command called, with its arguments. */
export type ContextCall =
  | { verb: 'pause' | 'resume' | 'quit' | 'detach' | 'clearScreen' | 'compactNow' }
  | { verb: 'switchSession'; id: string }
  | { verb: 'switchPersona'; name: string }
  | { verb: 'setProvider'; model: string }
  | { verb: 'setApproval'; kind: ToolKind; policy: ToolApprovalPolicy }
  | { verb: 'remind'; at: number; what: string }
  | { verb: 'saveSettings'; patch: ConfigInput };

export interface FakeCommandContext extends CommandContext {
  /** What the command told the user, in order. */
  said: string[];
  calls: ContextCall[];
  /** The verbs called, in order (for `toEqual` checks). */
  verbs(): string[];
}

const PERSONAS: readonly Persona[] = [
  {
    id: 'assistant',
    name: 'Assistant',
    nameZh: '助手',
    description: 'A calm, helpful generalist.',
    prompt: 'You are a calm assistant.',
    source: 'builtin',
    file: '(test)',
  },
  {
    id: 'detective',
    name: 'Detective',
    nameZh: '侦探',
    description: 'Finds clues.',
    prompt: 'You look for clues.',
    source: 'builtin',
    file: '(test)',
  },
];

/** Where the fake starts; a test overrides what it needs. */
export interface FakeContextState {
  sessionId: string;
  sessions: SessionInfo[];
  traces: TurnTrace[];
  ledger: CycleRecord[];
  spending: Spending;
  tools: Tool[];
  transcript: HistoryMessage[];
  /** What compactNow answers (text the compactor did not say). */
  compactAnswer: string | undefined;
}

export function fakeCommandContext(
  over: Partial<CommandContext> & { state?: Partial<FakeContextState> } = {},
): FakeCommandContext {
  const { state: stateOver, ...ctxOver } = over;
  const state: FakeContextState = {
    sessionId: 'session-1',
    sessions: [],
    traces: [],
    ledger: [],
    spending: { sessionTokens: 0, cachedTokens: 0, lastHour: 0, lastDay: 0, perHour: 0, perDay: 0 },
    tools: [],
    transcript: [],
    compactAnswer: undefined,
    ...stateOver,
  };
  const said: string[] = [];
  const calls: ContextCall[] = [];
  // Frozen: a command that tried to change the policy in place instead of asking would throw.
  let approval: Readonly<Record<ToolKind, ToolApprovalPolicy>> = Object.freeze({
    read: 'auto',
    write: 'auto',
    destructive: 'ask',
    network: 'auto',
    process: 'ask',
  });
  let persona = PERSONAS[0]!;
  let provider: Pick<Provider, 'id' | 'model'> = { id: 'openai-compatible', model: 'test-model' };
  const reminders: Reminder[] = [];
  let created = 0;
  const ctx: FakeCommandContext = {
    said,
    calls,
    verbs: () => calls.map((c) => c.verb),
    lang: 'en',
    say: (text) => void said.push(text),
    pause: () => void calls.push({ verb: 'pause' }),
    resume: () => void calls.push({ verb: 'resume' }),
    quit: () => void calls.push({ verb: 'quit' }),
    detach: () => void calls.push({ verb: 'detach' }),
    clearScreen: () => void calls.push({ verb: 'clearScreen' }),
    compactNow: async () => (calls.push({ verb: 'compactNow' }), state.compactAnswer),
    sessions: {
      list: async () => state.sessions,
      create: async () => ({ id: `session-new-${++created}` }) as Session,
      open: async (id: string) => ({ id }) as Session,
    },
    sessionId: () => state.sessionId,
    transcript: () => state.transcript,
    switchSession: (next) => {
      calls.push({ verb: 'switchSession', id: next.id });
      state.sessionId = next.id;
    },
    personas: {
      get current() {
        return persona;
      },
      list: PERSONAS,
    },
    switchPersona: (name) => {
      calls.push({ verb: 'switchPersona', name });
      const found = PERSONAS.find((p) => p.id === name || p.name === name || p.nameZh === name);
      if (found) persona = found;
      return found;
    },
    saveSettings: async (patch) => {
      calls.push({ verb: 'saveSettings', patch });
      return { file: '/nowhere/config.json' };
    },
    provider: () => provider,
    setProvider: (next) => {
      calls.push({ verb: 'setProvider', model: next.model });
      provider = next;
    },
    config: { ...defaultConfig(), workspace: '/nowhere' },
    modelsDir: '/nowhere/models',
    approval: () => approval,
    setApproval: (kind, policy) => {
      calls.push({ verb: 'setApproval', kind, policy });
      approval = Object.freeze({ ...approval, [kind]: policy });
    },
    tools: {
      list: () => state.tools,
      signature: (name) => `${name}()`,
    },
    traces: () => state.traces,
    ledger: () => state.ledger,
    spending: () => state.spending,
    reminders: {
      pending: () => reminders,
      add: (at, what) => {
        calls.push({ verb: 'remind', at, what });
        const r: Reminder = { id: reminders.length + 1, at, what, by: 'user' };
        reminders.push(r);
        return r;
      },
    },
    get workspace(): Workspace {
      throw new Error('this fake has no workspace: use the agent harness for /undo');
    },
    exportsDir: '/nowhere/exports',
    ...ctxOver,
  };
  return ctx;
}
