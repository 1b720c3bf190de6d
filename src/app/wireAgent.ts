import path from 'node:path';
import { Agent, type AgentSettings } from '../agent/agent.js';
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
    compact: createCompactHook(compactor, () => current),
    commands: createCommandRunner({
      sessions: parts.sessions,
      personas,
      config,
      switchSession: (next) => {
        current.close();
        current = next;
        agent.setHistory(next);
      },
      currentSessionId: () => current.id,
      currentSession: () => current,
      exportsDir: path.join(parts.home, 'data', 'exports'),
      modelsDir: appPaths(parts.home).models,
    }),
  });
  return { agent, currentSession: () => current };
}
