/**
 * The agent's side of the slash commands: builds the narrow {@link CommandContext} a command
 * sees from the agent's verbs and the app's parts. Every verb that changes something is the
 * agent's own act (pause, resume, setApproval, setProvider …), so a command never emits
 * events, mutates settings or fires machine transitions.
 */
import type { CommandContext } from '../commands/context.js';
import type { LoadedConfig } from '../config/load.js';
import type { CurrentSession } from '../history/currentSession.js';
import type { SessionStore } from '../history/index.js';
import type { Journal } from '../journal/journal.js';
import type { FolderMemory } from '../knowledge/folderMemory.js';
import type { McpServerStatus } from '../mcp/status.js';
import type { PersonaSet } from '../personas/personaSet.js';
import type { AgentVerbs } from './agentDeps.js';
import { DAY_MS, HOUR_MS } from '../memory/tokenBudget.js';

/** What the commands reach beyond the agent: the app's sessions, personas and folders. */
export interface CommandDeps {
  sessions: Pick<SessionStore, 'list' | 'create' | 'open' | 'adopt'>;
  personas: PersonaSet;
  config: LoadedConfig;
  /** The one holder of the current session (switching it moves everyone along). */
  current: CurrentSession;
  /** Where /export writes transcripts. */
  exportsDir: string;
  /** `<app home>/models`. */
  modelsDir: string;
  /** The current session's change journal (for /changes and /undo). */
  journal?(): Journal;
  /** The MCP servers' states (for /mcp); absent when the app runs without them. */
  mcp?: { status(): McpServerStatus[] };
  /** Writes settings into the home's config.json (/persona keeps its choice there). */
  saveSettings: CommandContext['saveSettings'];
  /** The instruction files (/context, /init); absent when the app runs without them. */
  instructions?: CommandContext['instructions'];
  /** The folder's memory (for /memory and /undo). */
  memory?: FolderMemory;
  /** The skills (/skills, `/name args`); absent when the app runs without them. */
  skills?: CommandContext['skills'];
  /** The host's editor hand-over (/memory edit); absent without a terminal to hand over. */
  editFile?: CommandContext['editFile'];
}

/** The context for one command call (the language is the one in use at that moment). */
export function commandContext(agent: AgentVerbs, env: CommandDeps): CommandContext {
  const { current, personas } = env;
  return {
    lang: agent.settings().lang,
    say: (text) => agent.notice(text),
    pause: () => agent.pause(),
    resume: () => agent.resume(),
    quit: () => agent.quit(),
    detach: () => agent.detach(),
    clearScreen: () => agent.clearScreen(),
    compactNow: (signal) => agent.compactNow(signal),
    sessions: {
      list: () => env.sessions.list(),
      create: () => env.sessions.create(),
      open: async (id) => {
        const session = await env.sessions.open(id);
        env.sessions.adopt(session);
        return session;
      },
    },
    sessionId: () => current.id,
    transcript: () => [...current.get().archivedMessages(), ...current.get().messages()],
    switchSession: (next) => current.switchTo(next),
    personas,
    switchPersona: (nameOrId) => {
      const found = personas.switchTo(nameOrId);
      if (found) agent.personaChanged(found.id);
      return found;
    },
    saveSettings: env.saveSettings,
    provider: () => agent.provider(),
    setProvider: (provider) => agent.setProvider(provider),
    config: env.config,
    modelsDir: env.modelsDir,
    approval: () => agent.settings().approval,
    setApproval: (kind, policy) => agent.setApproval(kind, policy),
    tools: {
      list: () => agent.registry.list(),
      signature: (name) => agent.registry.signature(name),
    },
    traces: () => agent.store.getState().traces,
    ledger: () => agent.store.getState().ledger,
    spending: () => {
      const s = agent.store.getState();
      return {
        sessionTokens: s.sessionTokens,
        cachedTokens: s.sessionCachedTokens,
        lastHour: agent.alwaysOn.budget.used(HOUR_MS),
        lastDay: agent.alwaysOn.budget.used(DAY_MS),
        perHour: agent.settings().tokenBudgetPerHour,
        perDay: agent.settings().tokenBudgetPerDay ?? 0,
      };
    },
    reminders: {
      pending: () => agent.alwaysOn.reminders.pending(),
      add: (at, what) => agent.remind(at, what),
    },
    workspace: agent.workspace,
    ...(env.journal ? { journal: env.journal } : {}),
    ...(env.mcp ? { mcp: env.mcp } : {}),
    exportsDir: env.exportsDir,
    ...(env.instructions ? { instructions: env.instructions } : {}),
    ...(env.memory ? { memory: env.memory } : {}),
    ...(env.skills ? { skills: env.skills } : {}),
    ...(env.editFile ? { editFile: env.editFile } : {}),
  };
}
