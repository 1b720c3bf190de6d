import { Agent, type AgentDeps, type AgentSettings } from '../agent/agent.js';
import type { SessionFeeds } from '../agent/agentDeps.js';
import type { AgentVerbs } from '../agent/agentDeps.js';
import { commandContext, type CommandDeps } from '../agent/commandContext.js';
import { runCommand } from '../commands/runner.js';
import type { LoadedConfig } from '../config/load.js';
import { CurrentSession } from '../history/currentSession.js';
import { loadInbox } from '../history/inbox.js';
import { SessionInbox } from '../history/sessionInbox.js';
import { AnswerLog, loadAnswers } from '../history/answerLog.js';
import { unfinishedAnswerNotice } from '../agent/answerNotice.js';
import type { Session, SessionStore } from '../history/index.js';
import type { MachineState } from '../machine/machine.js';
import { Compactor } from '../memory/compactor.js';
import { createCompactHook, type CompactDeps } from '../agent/compactHook.js';
import { TokenCounter } from '../memory/tokenCounter.js';
import { appPaths } from '../config/paths.js';
import { toolCallsOf } from '../config/schema.js';
import { updateConfigFile } from '../config/save.js';
import { buildSystemPrompt } from '../prompt/systemPrompt.js';
import type { Provider } from '../providers/types.js';
import { createAgentStore, type AgentStore } from '../store/agentStore.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Workspace } from '../tools/workspace.js';
import type { PersonaSet } from '../personas/personaSet.js';
import type { SessionJournal } from '../journal/sessionJournal.js';
import type { McpServerStatus } from '../mcp/status.js';
import type { Timers } from '../scheduler/scheduler.js';
import type { Reminders } from '../reminders/reminders.js';
import { Ledger } from '../ledger/ledger.js';
import type { HistoryFs } from '../core/fsPort.js';
import type { FolderMemory } from '../knowledge/folderMemory.js';
import { CycleRecorder } from '../ledger/recorder.js';
import type { InstructionSet } from '../instructions/instructionSet.js';
import type { SkillsView } from '../skills/view.js';

/** Everything the agent is assembled from, already loaded and checked. */
export interface WireAgentDeps {
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
  /** The host's quit (the quit keys, /exit); absent: /exit says there is nothing to quit. */
  quit?: AgentDeps['quit'];
  /** The host's detach (/detach); absent: /detach says there is nothing to detach. */
  detach?: AgentDeps['detach'];
  /** Tokens spent before this run (all sessions of the home), for the budgets. */
  spentBefore?: AgentDeps['spentBefore'];
  /** The background commands `run` started: how many run shows in the status bar. */
  background?: SessionFeeds['commands'];
  /** The workspace's instruction files (AGENTS.md…): in the prompt, and for /context and /init. */
  instructions?: InstructionSet;
  /** The folder's memory: in the prompt, flushed to before compaction, shown by /memory. */
  memory?: FolderMemory;
  /** The skills: their catalogue for the prompt, and what the commands see of them. */
  skills?: { catalogue: string; view: SkillsView };
  /** The host's editor hand-over (/memory edit); absent without a terminal to hand over. */
  editFile?: CommandDeps['editFile'];
  /** The file-system port of the session's state files (tests inject write faults). */
  fs?: HistoryFs;
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
export function wireAgent(parts: WireAgentDeps): WiredAgent {
  const { config, registry, settings } = parts;
  const current = new CurrentSession(parts.session);
  // The memory is read at the start of every session: a switch (/new, /resume) reads it again.
  const memory = parts.memory;
  if (memory) current.onSwitch(() => memory.refresh());
  const counter = new TokenCounter();
  const systemPrompt = systemPromptOf(parts);
  // /init's request is queued on the agent, which exists once the commands first run.
  const late: { agent?: Agent } = {};
  const env = commandDeps(parts, current, (text) => late.agent?.send({ type: 'queue', text }));
  // The journal follows a switch first: the agent then reports its new file count.
  if (parts.journals) {
    const journals = parts.journals;
    current.onSwitch((next) => journals.switchTo(next));
  }
  // Queued messages are on disk before they are acknowledged; those the last run left are
  // delivered first (history/inbox.ts). The inbox follows a switch, like the journal.
  const inHistory = new Set(parts.session.messages().map((m) => m.id));
  const loadedInbox = loadInbox(parts.session.dir, (id) => inHistory.has(id));
  const inbox = new SessionInbox(parts.session.dir, loadedInbox.pending);
  current.onSwitch((next) => inbox.switchTo(next.dir));
  // Approval answers too are on disk before they are applied (history/answerLog.ts).
  const lastAnswers = loadAnswers(parts.session.dir, parts.fs ? { fs: parts.fs } : {});
  const agent = new Agent({
    inputs: { journal: inbox, restored: loadedInbox.pending },
    answers: {
      journal: new AnswerLog(() => current.get().dir, parts.fs),
      warnings: [
        ...lastAnswers.warnings,
        ...lastAnswers.unfinished.map((u) => unfinishedAnswerNotice(u)),
      ],
    },
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
    ...(memory ? { memoryNudge: () => memory.tidyNudge() } : {}),
    ...(parts.restore ? { restore: parts.restore } : {}),
    ...(parts.toolsReady ? { toolsReady: parts.toolsReady } : {}),
    ...(parts.quit ? { quit: parts.quit } : {}),
    ...(parts.detach ? { detach: parts.detach } : {}),
    ...(parts.spentBefore ? { spentBefore: parts.spentBefore } : {}),
    compact: (verbs) =>
      createCompactHook(
        new Compactor({
          counter,
          settings: () => ({
            contextWindow: settings.contextWindow,
            compressAt: config.compressAt,
            compressTurns: config.compressTurns,
          }),
          provider: () => verbs.provider(),
          systemPrompt,
          ...(memory ? { flush: (facts: string[]) => flushToMemory(memory, facts, verbs) } : {}),
        }),
        compactDeps(verbs, current, memory),
      ),
    commands: (verbs) => (text, signal) => runCommand(text, commandContext(verbs, env), signal),
    feeds: sessionFeeds(current, parts),
  });
  late.agent = agent;
  for (const warning of loadedInbox.warnings)
    agent.send({ type: 'notice', level: 'warn', text: warning });
  return { agent, current };
}

/** The system prompt, rebuilt on each call so a /persona switch shows in the next request. */
function systemPromptOf(parts: WireAgentDeps): () => string {
  const { config, personas, registry, workspace, instructions, memory, skills } = parts;
  const language = config.language === 'auto' ? undefined : config.language;
  const toolCalls = toolCallsOf(config);
  return () =>
    buildSystemPrompt({
      workspaceRoot: workspace.root,
      toolList: registry.describeForPrompt(),
      toolCalls,
      persona: { name: personas.current.name, body: personas.current.prompt },
      ...(language ? { language } : {}),
      // Read again only when a file changed: asked once per turn, never mid-turn.
      ...(instructions ? { instructions: instructions.prompt() } : {}),
      ...(memory ? { memory: memory.promptSection() } : {}),
      ...(skills?.catalogue ? { skills: skills.catalogue } : {}),
    });
}

/** The pre-compaction flush: the facts go to the memory's inbox, for the user to accept. */
function flushToMemory(memory: FolderMemory, facts: string[], verbs: AgentVerbs): void {
  let proposed = 0;
  for (const fact of facts)
    if (memory.remember(fact, { apply: false, source: 'compaction' }).kind === 'inbox')
      proposed += 1;
  if (proposed > 0)
    verbs.notice(
      `${proposed} fact(s) from the compacted conversation wait in the memory inbox: /memory to accept or reject them.`,
    );
}

function storeFor({ initialState, provider, personas, settings }: WireAgentDeps): AgentStore {
  return createAgentStore({
    machine: initialState,
    model: provider.model,
    persona: personas.current.id,
    lang: settings.lang,
    // Known before the agent starts: the first frame shows the real limits, not 0/∞.
    maxCycles: settings.maxAutonomousCycles,
    contextWindow: settings.contextWindow,
    budgetPerHour: settings.tokenBudgetPerHour,
  });
}

/** The compactor's view of the agent: its verbs and the current session. */
function compactDeps(
  verbs: AgentVerbs,
  current: CurrentSession,
  memory: FolderMemory | undefined,
): CompactDeps {
  return {
    history: () => current,
    replaceHistory: () => {
      // The request's start changes anyway: the prompt takes the memory as it is now.
      memory?.refresh();
      verbs.historyReplaced();
    },
    notice: (text, level) => verbs.notice(text, level),
    lang: () => verbs.settings().lang,
  };
}

function commandDeps(
  parts: WireAgentDeps,
  current: CurrentSession,
  queue: (text: string) => void,
): CommandDeps {
  const paths = appPaths(parts.home);
  const { journals, instructions } = parts;
  return {
    sessions: parts.sessions,
    personas: parts.personas,
    config: parts.config,
    current,
    exportsDir: paths.exports,
    modelsDir: paths.models,
    ...(journals ? { journal: () => journals.current() } : {}),
    ...(parts.mcp ? { mcp: parts.mcp } : {}),
    ...(instructions
      ? {
          instructions: {
            report: () => instructions.report(),
            markSeen: () => instructions.markSeen(),
            queue,
          },
        }
      : {}),
    ...(parts.memory ? { memory: parts.memory } : {}),
    ...(parts.skills ? { skills: parts.skills.view } : {}),
    ...(parts.editFile ? { editFile: parts.editFile } : {}),
    saveSettings: async (patch) => {
      const saved = await updateConfigFile(parts.home, patch);
      if (saved.ok) return { file: saved.file };
      return { problem: saved.errors.map((e) => `${e.field} ${e.problem}. ${e.fix}`).join(' ') };
    },
  };
}

/**
 * What follows the current session, for the agent to report: the change journal's file
 * count (the status bar) and the cycle ledger (one record per turn, in the session's folder).
 */
function sessionFeeds(current: CurrentSession, parts: WireAgentDeps): SessionFeeds {
  const { journals } = parts;
  let ledger: Ledger | undefined;
  const timers = parts.alwaysOn?.timers;
  return {
    onSwitch: (listener) => current.onSwitch(listener),
    ...(journals
      ? {
          files: {
            count: () => journals.current().filesChanged(),
            onChange: (listener: () => void) => journals.onChange(listener),
          },
        }
      : {}),
    ...(parts.background ? { commands: parts.background } : {}),
    ledger: {
      open: (warn, failed) => {
        ledger = Ledger.inDir(current.get().dir, warn, parts.fs, failed);
        return ledger.records();
      },
      append: (record) => ledger?.append(record),
      recorder: (write) =>
        new CycleRecorder({
          tools: parts.registry,
          clock: timers ?? Date,
          write,
        }).listener,
    },
  };
}
