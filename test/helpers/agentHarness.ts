/**
 * Builds a real agent for tests: the OpenAI-compatible provider against the scripted server,
 * the real file tools in a temporary workspace, and a real session under a temporary home.
 * Timings are shrunk so tests run fast, but nothing is mocked.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Agent, AgentSettings } from '../../src/agent/agent.js';
import { wireAgent, type WireAgentDeps } from '../../src/app/wireAgent.js';
import { SessionStore, type Session } from '../../src/history/index.js';
import type { MachineState } from '../../src/machine/machine.js';
import { loadPersonaSet } from '../../src/personas/personaSet.js';
import { defaultConfig, type Config } from '../../src/config/schema.js';
import { createOpenAICompatibleProvider } from '../../src/providers/openaiCompatible.js';
import { createFileTools } from '../../src/tools/files/index.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { Tool } from '../../src/tools/types.js';
import { Workspace } from '../../src/tools/workspace.js';
import { Reminders } from '../../src/reminders/reminders.js';
import { createRemindTool } from '../../src/tools/remind.js';
import { startScriptedServer, type ScriptedServer } from './scriptedServer.js';

export interface Harness {
  agent: Agent;
  server: ScriptedServer;
  workspaceDir: string;
  home: string;
  /** The session the agent writes to now (changes after /new). */
  readonly session: Session;
  sessions: SessionStore;
  dispose(): Promise<void>;
}

export const FAST_SETTINGS: AgentSettings = {
  thinkIntervalMs: 5,
  maxAutonomousCycles: 0,
  tokenBudgetPerHour: 0,
  maxConsecutiveFailures: 5,
  backoff: { baseMs: 10, maxMs: 100 },
  toolResultBudgetChars: 8000,
  approval: { read: 'auto', write: 'auto', destructive: 'ask', network: 'auto', process: 'ask' },
  sendReasoningInHistory: false,
  contextWindow: 128_000,
  lang: 'en',
  // Pacing off: most tests want every cycle at once (the pacing tests turn it on).
  maxIntervalMs: 5,
  tokenBudgetPerDay: 0,
};

export async function createHarness(
  opts: {
    settings?: Partial<Omit<AgentSettings, 'approval'>> & {
      approval?: Partial<AgentSettings['approval']>;
    };
    initialState?: MachineState;
    server?: ScriptedServer;
    extraTools?: Tool[];
    streamIdleTimeoutMs?: number;
    /** Compression settings (the window comes from `settings.contextWindow`). */
    compaction?: { compressAt: number; compressTurns: number };
    /** Always-on wiring; by default no watcher and no idle skip. */
    alwaysOn?: WireAgentDeps['alwaysOn'];
    /** Config fields on top of the defaults (e.g. an `apiKey` the redactor must hide). */
    config?: Partial<Config>;
    /** Finishes a crash record (the first turn's RESTORE); default: none to finish. */
    restore?: WireAgentDeps['restore'];
    /** The host's quit port (/exit); default: none. */
    quit?: WireAgentDeps['quit'];
    /** The host's detach port (/detach); default: none. */
    detach?: WireAgentDeps['detach'];
  } = {},
): Promise<Harness> {
  const server = opts.server ?? (await startScriptedServer());
  const workspaceDir = await mkdtemp(path.join(os.tmpdir(), 'cogito-ws-'));
  const home = await mkdtemp(path.join(os.tmpdir(), 'cogito-home-'));
  const workspace = await Workspace.open(workspaceDir);
  const sessions = new SessionStore(path.join(home, 'data'));
  const session = await sessions.openLatestOrCreate();
  const reminders = new Reminders();
  const now = opts.alwaysOn?.timers ? () => opts.alwaysOn!.timers!.now() : Date.now;
  const registry = new ToolRegistry([
    ...createFileTools(),
    createRemindTool(reminders, now),
    ...(opts.extraTools ?? []),
  ]);
  const provider = createOpenAICompatibleProvider({
    baseURL: server.url,
    apiKey: 'test-key',
    model: 'test-model',
    streamIdleTimeoutMs: opts.streamIdleTimeoutMs ?? 2000,
  });
  const settings: AgentSettings = {
    ...FAST_SETTINGS,
    ...opts.settings,
    approval: { ...FAST_SETTINGS.approval, ...opts.settings?.approval },
  };
  const { agent, current } = wireAgent({
    provider,
    registry,
    workspace,
    sessions,
    session,
    personas: loadPersonaSet(home, 'assistant'),
    settings,
    config: {
      ...defaultConfig(),
      workspace: workspaceDir,
      baseURL: server.url,
      model: 'test-model',
      ...(opts.compaction ?? {}),
      ...(opts.config ?? {}),
    },
    home,
    initialState: opts.initialState ?? 'AWAITING_INPUT',
    alwaysOn: { idleSkip: false, ...opts.alwaysOn },
    reminders,
    ...(opts.restore ? { restore: opts.restore } : {}),
    ...(opts.quit ? { quit: opts.quit } : {}),
    ...(opts.detach ? { detach: opts.detach } : {}),
  });
  return {
    agent,
    server,
    workspaceDir,
    home,
    get session() {
      return current.get();
    },
    sessions,
    async dispose() {
      await agent.stop();
      current.close();
      await server.close();
      await rm(workspaceDir, { recursive: true, force: true });
      await rm(home, { recursive: true, force: true });
    },
  };
}
