import { buildRunTools } from './runTool.js';
import type { Agent, AgentSettings } from '../agent/agent.js';
import { wireAgent } from './wireAgent.js';
import { resolveLanguage, type Lang } from '../i18n/messages.js';
import { busyMessage } from './busyMessage.js';
import { loadConfig, type ConfigFlags, type LoadedConfig } from '../config/load.js';
import { formatConfigIssues } from '../config/format.js';
import { appPaths } from '../config/paths.js';
import { toolCallsOf } from '../config/schema.js';
import { SessionStore, type Session } from '../history/index.js';
import type { HistoryFs } from '../history/fsPort.js';
import { openWorkspaceSession, type ForeignSession } from './openWorkspaceSession.js';
import { acquireFolderLock, LOCK_FILE, takeLockNotices, type LockKind } from '../history/lock.js';
import { dropLegacyWorkspace } from '../config/legacyWorkspace.js';
import { importConversationJson } from '../history/importConversation.js';
import { ToolRegistry } from '../tools/registry.js';
import { Workspace } from '../tools/workspace.js';
import { createDocumentReader, createFileTools } from '../tools/files/index.js';
import { createWebTools } from '../tools/web/index.js';
import { checkSearchConfig } from '../tools/web/config.js';
import { createSystemTools } from '../tools/system/index.js';
import { createProvider } from '../providers/fromConfig.js';
import { loadPersonaSet, type PersonaSet } from '../personas/personaSet.js';
import type { MachineState } from '../machine/machine.js';
import type { Provider } from '../providers/types.js';
import path from 'node:path';
import { attachDebugLog } from './debugLog.js';
import { collectWhenQuiet } from './idleCollect.js';
import { DisposerStack, describeStopFailure, type StopFailure } from './disposers.js';
import { contextWindowFor } from '../config/models.js';
import { ownPlaces, realOwnPlaces } from '../safety/ownPlaces.js';
import { createPathIndex } from '../agent/mentionPaths.js';
import { SessionJournal } from '../journal/sessionJournal.js';
import { withJournal } from '../journal/wrap.js';
import { finishCrashRecord } from '../journal/recover.js';
import { McpManager } from '../mcp/manager.js';
import type { Reminders } from '../reminders/reminders.js';
import { openReminders } from '../reminders/reminderFile.js';
import { recentSpend } from '../ledger/homeSpend.js';
import { DAY_MS } from '../memory/tokenBudget.js';
import { createRemindTool } from '../tools/remind.js';
import { createRememberTool } from '../tools/remember.js';
import { FolderMemory } from '../knowledge/folderMemory.js';
import { sessionChoices, type SessionChoice } from '../history/sessionChoices.js';
import type { Tool, ToolKind } from '../tools/types.js';
import { invokedAs } from '../core/invokedAs.js';
import type { EditorOutcome } from '../core/editor.js';
import { openInstructions } from './openInstructions.js';
import { withInstructions } from '../instructions/withInstructions.js';
import type { InstructionSet } from '../instructions/instructionSet.js';
import { COMMANDS } from '../commands/builtin.js';
import { openSkills, type OpenedSkills } from '../skills/open.js';

export interface AppOptions {
  flags: ConfigFlags & {
    session?: string | undefined;
    /** Open a `--session` of another workspace without asking. */
    force?: boolean | undefined;
    /** Without `session`: start a new session instead of this folder's latest (print mode). */
    newSession?: boolean | undefined;
    thinkIntervalMs?: number | undefined;
    debug?: boolean | undefined;
    /** `--approve` (print mode): these kinds are `auto` for this run, whatever config.json says. */
    approve?: readonly ToolKind[] | undefined;
  };
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** The machine's first state: THINKING for the screen, AWAITING_INPUT for print mode. */
  initialState?: MachineState;
  /** Tests inject a provider; otherwise it is built from the config. */
  provider?: Provider;
  /**
   * Asks whether to open a `--session` that belongs to another workspace (the full-screen
   * app asks the user). Without it such a session is refused unless `flags.force`.
   */
  confirmSession?(session: ForeignSession): Promise<boolean>;
  /** Cogito's package folder, whose program files no tool may change (default: the running one). */
  installRoot?: string;
  /**
   * The screen's always-on behaviour: pacing, the zero-token idle path and the workspace
   * watcher. Print mode runs a fixed number of cycles and leaves it off.
   */
  background?: boolean;
  /**
   * What this run is, written in the folder lock so another Cogito can say how to reach it
   * (default `screen`). A `print` run in a new session runs beside a background agent that
   * holds the folder, without the lock: it writes only its own session.
   */
  holder?: LockKind;
  /** Builds the provider from the config when `provider` is not given (default: the real one). */
  createProvider?(config: LoadedConfig): Provider;
  /**
   * What quitting does: the root's own exit (the screen ends, the disposer stacks run). It is
   * the agent's host port for /exit, live while the app is open.
   */
  exit?(): void;
  /** What /detach does: the screen hands the session to a background agent (runTui). */
  detach?(): void;
  /**
   * Opens a file in the user's editor with the terminal handed over (/memory edit): the
   * full-screen app's own; absent (print mode), the command names the file instead.
   */
  editFile?(file: string): EditorOutcome;
  /**
   * The file system the state files (history, meta.json, reminders) are written through
   * (default: `node:fs`). Tests inject faults here: a full disk, a read-only folder.
   */
  fs?: HistoryFs;
}

export interface App {
  agent: Agent;
  config: LoadedConfig;
  home: string;
  /** The folder the agent works in (its real path). */
  workspace: string;
  /** Warnings to show once at start (recovered history, persona files…). */
  warnings: string[];
  /** The id of the session in use now (`/new` switches it). */
  currentSessionId(): string;
  /** This folder's sessions as the `/resume` picker offers them (the user's, then scripts'). */
  listSessions(): Promise<SessionChoice[]>;
  /** Workspace paths for an `@` mention being typed (src/agent/mentionPaths.ts). */
  findPaths(query: string): Promise<string[]>;
  /** The MCP servers from `mcpServers`; they start in the background after creation. */
  mcp: McpManager;
  /** The skills' names (docs/SKILLS.md), for the input's Tab completion of `/name`. */
  skillNames: readonly string[];
  /**
   * Stops everything that started, in reverse: the agent (its watcher with it), the MCP
   * servers, the change journal, the session, and last the home lock. A stop that fails is
   * reported in the result and the others still run. Idempotent.
   */
  close(): Promise<StopFailure[]>;
}

export type AppResult = { ok: true; app: App } | { ok: false; message: string; exitCode: number };

/** A start-up step that failed for a reason the user can fix; its message says how. */
class StartupError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

/**
 * Builds the whole agent from config, flags and environment. Never throws: when a step fails,
 * whatever had started is stopped again (in reverse, the home lock last) and the result
 * says why.
 */
export async function createApp(opts: AppOptions): Promise<AppResult> {
  const env = opts.env ?? process.env;
  const loaded = loadConfig({ env, flags: opts.flags, ...(opts.cwd ? { cwd: opts.cwd } : {}) });
  if (!loaded.ok)
    return { ok: false, message: formatConfigIssues(loaded.errors, loaded.file), exitCode: 2 };
  const stack = new DisposerStack();
  try {
    return { ok: true, app: await startApp(loaded, opts, env, stack) };
  } catch (err) {
    const failures = await stack.close();
    const known = err instanceof StartupError;
    const message = known ? err.message : `Cogito could not start: ${describe(err)}`;
    const notes = failures.map((f) => `\n(also ${describeStopFailure(f)})`).join('');
    return { ok: false, message: message + notes, exitCode: known ? err.exitCode : 2 };
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The start-up steps in order; each resource's stop goes on `stack` as soon as it exists. */
async function startApp(
  loaded: Extract<ReturnType<typeof loadConfig>, { ok: true }>,
  opts: AppOptions,
  env: NodeJS.ProcessEnv,
  stack: DisposerStack,
): Promise<App> {
  const { config, home } = loaded;
  const warnings: string[] = [];
  const { workspace, store, session } = await openFolder(loaded, opts, stack, warnings);
  warnings.push(...takeLockNotices());
  // `/new` and session switches change the session in use: close whichever it is by then.
  let currentSession = (): Session => session;
  stack.defer('the session', () => currentSession().close());

  const personas: PersonaSet = loadPersonaSet(home, config.persona);
  warnings.push(...personas.warnings, ...checkSearchConfig(config.search));
  const provider = opts.provider ?? (opts.createProvider ?? createProvider)(config);
  const journals = openJournals(config, home, session);
  stack.defer('the change journal', () => journals.close());
  const mcp = new McpManager({ servers: config.mcpServers, workspaceRoot: workspace.root });
  stack.defer('the MCP servers', () => mcp.stop());
  // The folder's reminders, kept in the home: a problem is a start-up warning, later a notice.
  let warn = (message: string): void => void warnings.push(message);
  // A write that fails pauses the agent; before it exists (never: nothing is written yet) a warning.
  let writeFailed = (problem: string): void => warn(problem);
  const lang = resolveLanguage(config.language, env);
  // A script's run (-p) leaves the folder's reminders to the user's screen or background
  // agent: one that fell due while Cogito was closed is not the script's to use up.
  const reminders = openReminders(appPaths(home).data, workspace.root, (m) => warn(m), lang, {
    leaveSaved: opts.holder === 'print',
    ...(opts.fs ? { fs: opts.fs } : {}),
    writeFailed: (problem) => writeFailed(problem),
  });
  const { instructions, memory, skills } = await openFolderKnowledge(
    { config, home, workspace, journals, ...(opts.fs ? { fs: opts.fs } : {}) },
    (m) => warn(m),
  );
  warnings.push(...skills.warnings);
  const quit = quitPort(opts.exit, stack);
  const detach = quitPort(opts.detach, stack);

  // Background commands are stopped (their whole sandboxes) when the app closes: after the
  // agent's stop, before the journal's, so nothing they started outlives the program.
  const runTools = buildRunTools(config, journals, home);
  stack.defer('the background commands', () => runTools.background.stopAll(true));
  const wired = wireAgent({
    provider,
    registry: buildRegistry(
      config,
      journals,
      { reminders, memory },
      mcp,
      home,
      runTools.tools,
      instructions,
      skills.tool,
    ),
    background: runTools.background,
    instructions,
    skills: { catalogue: skills.catalogue, view: skills.view },
    ...(opts.fs ? { fs: opts.fs } : {}),
    workspace,
    sessions: store,
    session,
    personas,
    settings: agentSettings(config, opts, env, provider),
    config,
    home,
    journals,
    // The crash record (half-made changes rolled back, lost results written) is finished by
    // the first turn's RESTORE, before any request is built.
    restore: () => finishCrashRecord(session, journals.current(), workspace),
    initialState: opts.initialState ?? (opts.flags.paused ? 'PAUSED' : 'THINKING'),
    mcp,
    // The first request waits (bounded) for the servers, so it already offers their tools.
    toolsReady: {
      starting: () => mcp.starting(),
      settled: (signal) => mcp.settled(config.mcpConnectTimeoutMs, signal),
    },
    reminders,
    memory,
    ...(quit ? { quit } : {}),
    ...(detach ? { detach } : {}),
    ...(opts.editFile ? { editFile: opts.editFile } : {}),
    spentBefore: recentSpend(store.sessionsDir, Date.now() - DAY_MS),
    alwaysOn:
      opts.background === false
        ? { idleSkip: false }
        : { watch: { ignore: config.watch.ignore, maxEntries: config.watch.maxEntries } },
  });
  const { agent } = wired;
  warn = (text) => void agent.send({ type: 'notice', level: 'warn', text });
  writeFailed = (problem) => agent.writeFailed(problem);
  currentSession = () => wired.current.get();
  // /new and /resume: the next conversation knows none of the old one's background ids.
  wired.current.onSwitch(() => void runTools.background.stopAll());
  try {
    // Attached before the agent's stop goes on the stack, the log is detached after it and
    // hears the agent's last events.
    if (opts.flags.debug) warnings.push(`debug log: ${startDebugLog(agent, home, stack)}`);
    // Gives back the old space V8 kept once a turn is over and the agent is quiet.
    stack.defer(
      'the idle collection',
      collectWhenQuiet((listener) => agent.subscribe(listener)),
    );
  } finally {
    // The agent's stop also closes the workspace watcher its start opened.
    stack.defer('the agent', () => agent.stop());
  }
  // After this function returns, so spawning and handshakes never hold up the first frame;
  // the first request waits for them (up to mcpConnectTimeoutMs), not the screen (a no-op
  // once stopped).
  setImmediate(() => mcp.start());
  const paths = createPathIndex({
    workspace,
    ignore: config.watch.ignore,
    hidden: ownPlaces(home).homeItems,
  });
  return {
    agent,
    config,
    home,
    workspace: workspace.root,
    warnings,
    currentSessionId: () => currentSession().id,
    listSessions: async () => sessionChoices(await store.list(), currentSession().id),
    findPaths: (query) => paths.candidates(query),
    mcp,
    skillNames: skills.view.names(),
    close: () => stack.close(),
  };
}

/** The folder and its session, each locked: one Cogito per folder, others side by side. */
async function openFolder(
  loaded: Extract<ReturnType<typeof loadConfig>, { ok: true }>,
  opts: AppOptions,
  stack: DisposerStack,
  warnings: string[],
) {
  const { config, home } = loaded;
  const workspace = await openWorkspace(config.workspace, home, opts.installRoot);
  const lang = resolveLanguage(config.language, opts.env ?? process.env);
  lockFolder(home, workspace.root, stack, 'the folder lock', opts, lang);
  const legacy = await dropLegacyWorkspace(home, loaded.fileValues, workspace.root);
  if (legacy) warnings.push(legacy);
  const { store, session } = await openHistory(config, home, workspace, opts, warnings);
  // A session of another folder (--session ID --force) is that folder's too: hold its lock as
  // well, so a Cogito working there never writes the same history at the same time.
  const owner = store.describe(session.id)?.workspace;
  if (owner !== undefined && !store.isHere(owner))
    lockFolder(
      home,
      owner,
      stack,
      "the session's folder lock",
      { ...opts, holder: 'screen' },
      lang,
    );
  return { workspace, store, session };
}

/** The agent's host port for /exit (or /detach): the root's own, live until the app closes. */
function quitPort(exit: (() => void) | undefined, stack: DisposerStack): (() => void) | undefined {
  if (!exit) return undefined;
  let live = true;
  stack.defer('the quit port', () => void (live = false));
  return () => {
    if (live) exit();
  };
}

/**
 * Takes `folder`'s lock until the stack closes; a folder another Cogito holds stops the start.
 * One exception: a print run in a session of its own beside a long-running agent (a background
 * agent or an open screen: issue 33, -p was refused where a screen was open). Two long-running
 * agents never share a folder, and a print run that would continue a session (-c, --session)
 * could be continuing the other's: refused.
 */
function lockFolder(
  home: string,
  folder: string,
  stack: DisposerStack,
  name: string,
  opts: AppOptions,
  lang: Lang,
): void {
  const kind = opts.holder ?? 'screen';
  const lock = acquireFolderLock(home, folder, kind, (h, w) => busyMessage(h, w, lang));
  if (lock.ok) {
    stack.defer(name, () => lock.release());
    return;
  }
  const other = lock.holder?.kind;
  const besideAgent = kind === 'print' && (other === 'background' || other === 'screen');
  const ownSession = opts.flags.newSession === true && opts.flags.session === undefined;
  if (besideAgent && ownSession) return;
  const hint = besideAgent
    ? ` Without -c and --session, ${invokedAs()} -p runs beside it in a session of its own.`
    : '';
  throw new StartupError(lock.message + hint, 3);
}

/** Opens the workspace and fences Cogito's own files off from the tools. */
/**
 * The workspace with Cogito's own files fenced off and its own places protected (also what an
 * attached screen's `@` list reads through, src/daemon/attach.ts).
 * @throws StartupError naming the folder when it cannot be opened.
 */
export async function openWorkspace(
  root: string,
  home: string,
  installRoot: string | undefined,
): Promise<Workspace> {
  let workspace: Workspace;
  try {
    workspace = await Workspace.open(root);
  } catch (err) {
    throw new StartupError(describe(err));
  }
  // With the defaults the home is the workspace: keep the tools off Cogito's own files.
  const own = appPaths(home);
  await workspace.fence(own.config, "Cogito's settings file (it holds the API key)");
  await workspace.fence(own.data, "Cogito's own data (history, archives, logs)");
  await workspace.fence(path.join(home, LOCK_FILE), "Cogito's lock file");
  // Writes into Cogito's home or program, version control and start-up files are refused
  // or asked about by the resolver itself (docs/SAFETY.md).
  workspace.protectOwnPlaces(await realOwnPlaces(home, installRoot));
  return workspace;
}

/** The session store and the session this run works in (an old conversation.json imported). */
async function openHistory(
  config: LoadedConfig,
  home: string,
  workspace: Workspace,
  opts: AppOptions,
  warnings: string[],
): Promise<{ store: SessionStore; session: Session }> {
  const data = appPaths(home).data;
  const store = new SessionStore(data, {
    ...(opts.fs ? { fs: opts.fs } : {}),
    durability: config.durability,
    workspace: workspace.root,
    caseInsensitive: workspace.caseInsensitive,
    // A script's run keeps to scripts' sessions: the screen's "latest" stays the user's.
    kind: opts.holder === 'print' ? 'print' : 'interactive',
  });
  let opened: Awaited<ReturnType<typeof openWorkspaceSession>>;
  try {
    const imported = await importConversationJson(path.join(data, 'conversation.json'), store);
    if (imported) warnings.push(...imported.warnings);
    opened = await openWorkspaceSession(store, {
      id: opts.flags.session,
      fresh: opts.flags.newSession,
      force: opts.flags.force,
      confirm: opts.confirmSession,
    });
  } catch (err) {
    throw new StartupError(describe(err));
  }
  if (!opened.ok) throw new StartupError(opened.message, opened.exitCode);
  warnings.push(...opened.session.loadWarnings);
  return { store, session: opened.session };
}

/** The change journal of the session. */
function openJournals(config: LoadedConfig, home: string, session: Session): SessionJournal {
  const data = appPaths(home).data;
  try {
    return new SessionJournal(data, config.undo, session);
  } catch (err) {
    throw new StartupError(
      `Cannot open the change journal: ${describe(err)}. Check that ${data} is writable (or use --home DIR).`,
    );
  }
}

/** Every tool: files (journaled), reminders, web, system, run, and the MCP servers' tools. */
/**
 * What the folder teaches the agent and what it keeps (docs/INSTRUCTIONS.md, MEMORY.md,
 * SKILLS.md): its instruction files, its memory in the home, and its skills.
 */
async function openFolderKnowledge(
  deps: {
    config: LoadedConfig;
    home: string;
    workspace: Workspace;
    journals: SessionJournal;
    fs?: HistoryFs;
  },
  warn: (message: string) => void,
): Promise<{ instructions: InstructionSet; memory: FolderMemory; skills: OpenedSkills }> {
  const { config, home, workspace, journals } = deps;
  // AGENTS.md and friends: in the system prompt, and a subfolder's with a tool's result.
  const secrets = [config.apiKey, config.search.tavilyKey, config.search.braveKey];
  const instructions = await openInstructions({
    config,
    home,
    workspace,
    journal: () => journals.current(),
    secrets,
  });
  // The folder's memory, kept in the home beside its reminders.
  const memory = new FolderMemory({
    dataDir: appPaths(home).data,
    workspace: workspace.root,
    warn,
    ...(deps.fs ? { fs: deps.fs } : {}),
  });
  const skills = openSkills(
    workspace.root,
    home,
    warn,
    COMMANDS.map((c) => c.name),
  );
  return { instructions, memory, skills };
}

function buildRegistry(
  config: LoadedConfig,
  journals: SessionJournal,
  { reminders, memory }: { reminders: Reminders; memory: FolderMemory },
  mcp: McpManager,
  home: string,
  runTools: readonly Tool[],
  instructions: InstructionSet,
  skill: Tool,
): ToolRegistry {
  const documents = createDocumentReader(appPaths(home).documentCache);
  const files = withJournal(createFileTools({ documents }), () => journals.current());
  return new ToolRegistry(
    [
      ...withInstructions(files, instructions),
      createRemindTool(reminders),
      createRememberTool(memory),
      ...createWebTools({ search: config.search, fetch: config.fetch }),
      ...createSystemTools(),
      ...runTools,
      skill,
    ],
    [mcp],
  );
}

/** The agent's settings from the config, the flags and the provider's model. */
function agentSettings(
  config: LoadedConfig,
  opts: AppOptions,
  env: NodeJS.ProcessEnv,
  provider: Provider,
): AgentSettings {
  const thinkIntervalMs = opts.flags.thinkIntervalMs ?? config.thinkIntervalMs;
  return {
    thinkIntervalMs,
    maxAutonomousCycles: config.maxAutonomousCycles,
    tokenBudgetPerHour: config.tokenBudgetPerHour,
    tokenBudgetPerDay: config.tokenBudgetPerDay,
    // Print mode runs its cycles back to back: no pacing there.
    maxIntervalMs:
      opts.background === false
        ? thinkIntervalMs
        : Math.max(config.pacing.maxIntervalMs, thinkIntervalMs),
    cacheTtlMs: config.pacing.cacheTtlSeconds * 1000,
    changeWakes: {
      minIntervalMs: config.watch.minWakeIntervalMs,
      maxPerHour: config.watch.maxWakesPerHour,
    },
    resumeAfterWaitMs: config.watch.resumeAfterWaitMs,
    maxConsecutiveFailures: config.maxConsecutiveFailures,
    backoff: config.backoff,
    toolResultBudgetChars: config.toolResultBudgetChars,
    maxToolCallsPerReply: config.maxToolCallsPerReply,
    maxStepsPerTurn: config.maxStepsPerTurn,
    // A run's --approve lifts the kinds' policy only; protected places are judged apart.
    approval: {
      ...config.approval,
      ...Object.fromEntries((opts.flags.approve ?? []).map((k) => [k, 'auto' as const])),
    },
    ...(opts.flags.approve ? { approvedKinds: [...opts.flags.approve] } : {}),
    sendReasoningInHistory: config.quirks.sendReasoningInHistory,
    toolCalls: toolCallsOf(config),
    lang: resolveLanguage(config.language, env),
    // A local model's window is the context it is loaded with; remote ones are looked up.
    contextWindow:
      config.provider === 'local'
        ? (config.contextWindow ?? config.contextSize ?? 8192)
        : contextWindowFor(provider.model, config),
  };
}

/** `--debug`: the log attached, its detach on the stack; returns the log file's path. */
function startDebugLog(agent: Agent, home: string, stack: DisposerStack): string {
  let log: ReturnType<typeof attachDebugLog>;
  try {
    log = attachDebugLog(agent, home);
  } catch (err) {
    throw new StartupError(
      `Cannot write the debug log: ${describe(err)}. Check that ${appPaths(home).logs} is writable, or start without --debug.`,
    );
  }
  stack.defer('the debug log', () => log.detach());
  return log.file;
}
