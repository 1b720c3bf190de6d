import path from 'node:path';
import { Agent, type AgentDeps, type AgentSettings } from '../agent/agent.js';
import { createCommandRunner } from '../commands/runner.js';
import type { LoadedConfig } from '../config/load.js';
import type { Session, SessionStore } from '../history/index.js';
import type { MachineState } from '../machine/machine.js';
import { Compactor } from '../memory/compactor.js';
import { createCompactHook } from '../memory/compactHook.js';
import { TokenCounter } from '../memory/tokenCounter.js';
import { appPaths } from '../config/paths.js';
import { buildSystemPrompt } from '../prompt/systemPrompt.js';
import type { Provider } from '../providers/types.js';
import { createAgentStore } from '../store/agentStore.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Workspace } from '../tools/workspace.js';
import type { PersonaSet } from './personas.js';
import type { SessionJournal } from '../journal/sessionJournal.js';
import type { McpServerStatus } from '../mcp/status.js';
import type { Timers } from '../scheduler/scheduler.js';
import type { Reminders } from '../schedule/reminders.js';
import { Ledger } from '../ledger/ledger.js';
import { CycleRecorder } from '../ledger/recorder.js';
import { parseReply } from '../protocol/parser.js';

/** Everything the agent is assembled from, already loaded and checked. */
export interface AgentParts {
  provider: Provider;
  registry: ToolRegistry;
  workspace: Workspace;
  sessions: SessionStore;
  session: Session;
  personas: PersonaSet;
  settings: AgentSettings;
  config: LoadedConfig;
  home: string;
  initialState: MachineState;
  /** The change journal of the current session (absent: changes are not journaled). */
  journals?: SessionJournal;
  /** The MCP servers, for /mcp (their tools reach the agent through the registry). */
  mcp?: { status(): McpServerStatus[] };
  /** Always-on wiring: watch the workspace, skip idle looks (both default on in the app). */
  alwaysOn?: { watch?: { debounceMs?: number } | false; idleSkip?: boolean; timers?: Timers };
  /** The reminders behind the registry's `remind` tool. */
  reminders?: Reminders;
  /** Finishes the last run's crash record (the first turn's RESTORE calls it). */
  restore?: AgentDeps['restore'];
}

/**
 * The one place the agent is put together: store, system prompt (persona, workspace, tool
 * registry, language), compression and slash commands bound to the current session. The app
 * and the tests both use it, so the tests exercise the real wiring.
 */
export function wireAgent(parts: AgentParts): { agent: Agent; currentSession(): Session } {
  const { config, personas, registry, workspace, settings } = parts;
  const language = config.language === 'auto' ? undefined : config.language;
  let current = parts.session;
  const counter = new TokenCounter();
  const systemPrompt = (): string =>
    buildSystemPrompt({
      workspaceRoot: workspace.root,
      toolList: registry.describeForPrompt(),
      persona: { name: personas.current.name, body: personas.current.prompt },
      ...(language ? { language } : {}),
    });
  const compactor = new Compactor({
    counter,
    settings: () => ({
      contextWindow: settings.contextWindow,
      compressAt: config.compressAt,
      compressTurns: config.compressTurns,
    }),
    provider: (): Provider => agent.provider,
    systemPrompt,
  });
  const agent: Agent = new Agent({
    store: createAgentStore({
      machine: parts.initialState,
      model: parts.provider.model,
      persona: personas.current.id,
      // Known before the agent starts: the first frame shows the real limits, not 0/∞.
      maxCycles: settings.maxAutonomousCycles,
      contextWindow: settings.contextWindow,
      budgetPerHour: settings.tokenBudgetPerHour,
    }),
    provider: parts.provider,
    registry,
    workspace,
    history: current,
    settings,
    counter,
    secrets: [config.apiKey, config.search.tavilyKey, config.search.braveKey].filter(
      (k): k is string => typeof k === 'string',
    ),
    systemPrompt,
    ...(parts.alwaysOn?.watch ? { watch: parts.alwaysOn.watch } : {}),
    ...(parts.alwaysOn?.idleSkip === false ? { idleSkip: false } : {}),
    ...(parts.alwaysOn?.timers ? { timers: parts.alwaysOn.timers } : {}),
    ...(parts.reminders ? { reminders: parts.reminders } : {}),
    ...(parts.restore ? { restore: parts.restore } : {}),
    compact: createCompactHook(compactor, () => current),
    commands: createCommandRunner({
      sessions: parts.sessions,
      personas,
      config,
      switchSession: (next) => {
        current.close();
        current = next;
        parts.journals?.switchTo(next);
        agent.setHistory(next);
        openLedger();
      },
      currentSessionId: () => current.id,
      currentSession: () => current,
      exportsDir: path.join(parts.home, 'data', 'exports'),
      modelsDir: appPaths(parts.home).models,
      ...(parts.journals ? { journal: () => parts.journals!.current() } : {}),
      ...(parts.mcp ? { mcp: parts.mcp } : {}),
    }),
  });
  if (parts.journals) {
    const journals = parts.journals;
    const report = (): void =>
      agent.emit({ type: 'files_changed', count: journals.current().filesChanged() });
    journals.onChange(report);
    report();
  }
  // The cycle ledger: one record per turn, in the current session's folder.
  let ledger: Ledger;
  const openLedger = (): void => {
    ledger = Ledger.inDir(current.dir, (message) => agent.notice(message, 'warn'));
    agent.emit({ type: 'ledger_loaded', records: ledger.records() });
  };
  const now = parts.alwaysOn?.timers ? () => parts.alwaysOn!.timers!.now() : Date.now;
  const recorder = new CycleRecorder({
    kindOf: (name) => registry.get(name)?.kind,
    now,
    shown: (reply) => parseReply(reply).text,
    write: (record) => {
      ledger.append(record);
      agent.emit({ type: 'cycle_recorded', record });
    },
  });
  agent.subscribe(recorder.listener);
  openLedger();
  return { agent, currentSession: () => current };
}
