import { Agent, type AgentDeps, type AgentSettings } from '../agent/agent.js';
import { commandContext, type CommandEnv } from '../agent/commandContext.js';
import { runCommand } from '../commands/runner.js';
import type { LoadedConfig } from '../config/load.js';
import { CurrentSession } from '../history/currentSession.js';
import type { Session, SessionStore } from '../history/index.js';
import type { MachineState } from '../machine/machine.js';
import { Compactor } from '../memory/compactor.js';
import { createCompactHook, type CompactPort } from '../memory/compactHook.js';
import { TokenCounter } from '../memory/tokenCounter.js';
import { appPaths } from '../config/paths.js';
import { updateConfigFile } from '../config/save.js';
import { buildSystemPrompt } from '../prompt/systemPrompt.js';
import type { Provider } from '../providers/types.js';
import { createAgentStore, type AgentStore } from '../store/agentStore.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Workspace } from '../tools/workspace.js';
import type { PersonaSet } from './personas.js';
import type { SessionJournal } from '../journal/sessionJournal.js';
import type { McpServerStatus } from '../mcp/status.js';
import type { Timers } from '../scheduler/scheduler.js';
import type { Reminders } from '../schedule/reminders.js';
import { Ledger } from '../ledger/ledger.js';
import { CycleRecorder } from '../ledger/recorder.js';

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
  alwaysOn?: { watch?: AgentDeps['watch'] | false; idleSkip?: boolean; timers?: Timers };
  /** The reminders behind the registry's `remind` tool. */
  reminders?: Reminders;
  /** Finishes the last run's crash record (the first turn's RESTORE calls it). */
  restore?: AgentDeps['restore'];
  /** Tool sources still connecting (the MCP servers): BUILD waits for them, bounded. */
  toolsReady?: AgentDeps['toolsReady'];
}

/** The wired agent and the one holder of the current session, which the app reads too. */
export interface WiredAgent {
  agent: Agent;
  current: CurrentSession;
}

/**
 * The one place the agent is put together: store, system prompt (persona, workspace, tool
 * registry, language), compression and slash commands bound to the current session, the
 * change journal and the cycle ledger following that session. The app and the tests both
 * use it, so the tests exercise the real wiring.
 */
export function wireAgent(parts: AgentParts): WiredAgent {
  const { config, registry, settings } = parts;
  const current = new CurrentSession(parts.session);
  const counter = new TokenCounter();
  const systemPrompt = systemPromptOf(parts);
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
  const env = commandEnv(parts, current);
  const agent: Agent = new Agent({
    store: storeFor(parts),
    provider: parts.provider,
    registry,
    workspace: parts.workspace,
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
    ...(parts.toolsReady ? { toolsReady: parts.toolsReady } : {}),
    compact: createCompactHook(
      compactor,
      compactPort(() => agent, current),
    ),
    commands: (text, signal) => runCommand(text, commandContext(agent, env), signal),
  });
  // After a switch: the journal first, then the screen shows the new conversation, then the
  // new session's ledger is opened.
  if (parts.journals) wireJournal(agent, current, parts.journals);
  current.onSwitch(() => agent.setHistory(current, true));
  wireLedger(agent, current, parts);
  return { agent, current };
}

/** The system prompt, rebuilt on each call so a /persona switch shows in the next request. */
function systemPromptOf({ config, personas, registry, workspace }: AgentParts): () => string {
  const language = config.language === 'auto' ? undefined : config.language;
  return () =>
    buildSystemPrompt({
      workspaceRoot: workspace.root,
      toolList: registry.describeForPrompt(),
      persona: { name: personas.current.name, body: personas.current.prompt },
      ...(language ? { language } : {}),
    });
}

function storeFor({ initialState, provider, personas, settings }: AgentParts): AgentStore {
  return createAgentStore({
    machine: initialState,
    model: provider.model,
    persona: personas.current.id,
    // Known before the agent starts: the first frame shows the real limits, not 0/∞.
    maxCycles: settings.maxAutonomousCycles,
    contextWindow: settings.contextWindow,
    budgetPerHour: settings.tokenBudgetPerHour,
  });
}

/** The compactor's view of the agent (read lazily: the agent is built after the hook). */
function compactPort(agent: () => Agent, current: CurrentSession): CompactPort {
  return {
    history: () => current,
    replaceHistory: (history) => agent().setHistory(history),
    notice: (text, level) => agent().notice(text, level),
    lang: () => agent().settings.lang,
  };
}

function commandEnv(parts: AgentParts, current: CurrentSession): CommandEnv {
  const paths = appPaths(parts.home);
  const { journals } = parts;
  return {
    sessions: parts.sessions,
    personas: parts.personas,
    config: parts.config,
    current,
    exportsDir: paths.exports,
    modelsDir: paths.models,
    ...(journals ? { journal: () => journals.current() } : {}),
    ...(parts.mcp ? { mcp: parts.mcp } : {}),
    saveSettings: async (patch) => {
      const saved = await updateConfigFile(parts.home, patch);
      if (saved.ok) return { file: saved.file };
      return { problem: saved.errors.map((e) => `${e.field} ${e.problem}. ${e.fix}`).join(' ') };
    },
  };
}

/** The change journal follows the current session; the status bar counts its files. */
function wireJournal(agent: Agent, current: CurrentSession, journals: SessionJournal): void {
  current.onSwitch((next) => journals.switchTo(next));
  const report = (): void =>
    agent.emit({ type: 'files_changed', count: journals.current().filesChanged() });
  journals.onChange(report);
  report();
}

/** The cycle ledger: one record per turn, in the current session's folder. */
function wireLedger(agent: Agent, current: CurrentSession, parts: AgentParts): void {
  let ledger: Ledger;
  const openLedger = (): void => {
    ledger = Ledger.inDir(current.get().dir, (message) => agent.notice(message, 'warn'));
    agent.emit({ type: 'ledger_loaded', records: ledger.records() });
  };
  const timers = parts.alwaysOn?.timers;
  const recorder = new CycleRecorder({
    kindOf: (name) => parts.registry.get(name)?.kind,
    now: timers ? () => timers.now() : Date.now,
    write: (record) => {
      ledger.append(record);
      agent.emit({ type: 'cycle_recorded', record });
    },
  });
  agent.subscribe(recorder.listener);
  current.onSwitch(openLedger);
  openLedger();
}
