import type { Agent, AgentSettings } from '../agent/agent.js';
import { wireAgent } from './wireAgent.js';
import { resolveLanguage } from '../i18n/messages.js';
import { loadConfig, type ConfigFlags, type LoadedConfig } from '../config/load.js';
import { formatConfigIssues } from '../config/format.js';
import { appPaths } from '../config/paths.js';
import { SessionStore, type Session } from '../history/index.js';
import { openSession, type ForeignSession } from './openSession.js';
import { acquireHomeLock, LOCK_FILE } from '../history/lock.js';
import { importConversationJson } from '../history/importConversation.js';
import { ToolRegistry } from '../tools/registry.js';
import { Workspace } from '../tools/workspace.js';
import { createFileTools } from '../tools/files/index.js';
import { createWebTools } from '../tools/web/index.js';
import { checkSearchConfig } from '../tools/web/config.js';
import { createSystemTools } from '../tools/system/index.js';
import { createProvider } from './provider.js';
import { loadPersonaSet, type PersonaSet } from './personas.js';
import type { MachineState } from '../machine/machine.js';
import type { Provider } from '../providers/types.js';
import path from 'node:path';
import { attachDebugLog } from './debugLog.js';
import { contextWindowFor } from '../config/models.js';
import { realOwnPlaces } from '../safety/ownPlaces.js';
import { SessionJournal } from '../journal/sessionJournal.js';
import { withJournal } from '../journal/wrap.js';
import { finishCrashRecord } from '../journal/recover.js';
import { McpManager } from '../mcp/manager.js';
import { Reminders } from '../schedule/reminders.js';
import { createRemindTool } from '../tools/remind.js';

export interface AppOptions {
  flags: ConfigFlags & {
    session?: string | undefined;
    /** Open a `--session` of another workspace without asking. */
    force?: boolean | undefined;
    thinkIntervalMs?: number | undefined;
    debug?: boolean | undefined;
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
}

export interface App {
  agent: Agent;
  config: LoadedConfig;
  home: string;
  /** Warnings to show once at start (recovered history, persona files…). */
  warnings: string[];
  /** The id of the session in use now (`/new` switches it). */
  currentSessionId(): string;
  /** The MCP servers from `mcpServers`; they start in the background after creation. */
  mcp: McpManager;
  /** Stops the agent, closes the session and releases the home lock. Idempotent. */
  close(): Promise<void>;
}

export type AppResult = { ok: true; app: App } | { ok: false; message: string; exitCode: number };

/** Builds the whole agent from config, flags and environment. Never throws for bad input. */
export async function createApp(opts: AppOptions): Promise<AppResult> {
  const env = opts.env ?? process.env;
  const loaded = loadConfig({ env, flags: opts.flags, ...(opts.cwd ? { cwd: opts.cwd } : {}) });
  if (!loaded.ok)
    return { ok: false, message: formatConfigIssues(loaded.errors, loaded.file), exitCode: 2 };
  const config = loaded.config;
  const home = loaded.home;

  let workspace: Workspace;
  try {
    workspace = await Workspace.open(config.workspace);
  } catch (err) {
    return { ok: false, message: (err as Error).message, exitCode: 2 };
  }

  // With the defaults the home is the workspace: keep the tools off Cogito's own files.
  const own = appPaths(home);
  await workspace.fence(own.config, "Cogito's settings file (it holds the API key)");
  await workspace.fence(own.data, "Cogito's own data (history, archives, logs)");
  await workspace.fence(path.join(home, LOCK_FILE), "Cogito's lock file");
  // Writes into Cogito's home or program, version control and start-up files are refused
  // or asked about by the resolver itself (docs/SAFETY.md).
  workspace.protectOwnPlaces(await realOwnPlaces(home, opts.installRoot));

  const lock = acquireHomeLock(home);
  if (!lock.ok) return { ok: false, message: lock.message, exitCode: 3 };

  const warnings: string[] = [];
  let session: Session;
  const store = new SessionStore(appPaths(home).data, {
    durability: config.durability,
    workspace: workspace.root,
    caseInsensitive: workspace.caseInsensitive,
  });
  try {
    const imported = await importConversationJson(
      path.join(appPaths(home).data, 'conversation.json'),
      store,
    );
    if (imported) warnings.push(...imported.warnings);
    const opened = await openSession(store, {
      id: opts.flags.session,
      force: opts.flags.force,
      confirm: opts.confirmSession,
    });
    if (!opened.ok) {
      lock.release();
      return opened;
    }
    session = opened.session;
  } catch (err) {
    lock.release();
    return { ok: false, message: (err as Error).message, exitCode: 2 };
  }
  warnings.push(...session.loadWarnings);

  const personas: PersonaSet = loadPersonaSet(home, config.persona);
  warnings.push(...personas.warnings);

  warnings.push(...checkSearchConfig(config.search));
  const provider = opts.provider ?? createProvider(config);
  let journals: SessionJournal;
  try {
    journals = new SessionJournal(own.data, config.undo, session);
  } catch (err) {
    session.close();
    lock.release();
    return {
      ok: false,
      message: `Cannot open the change journal: ${(err as Error).message}. Check that ${own.data} is writable (or use --home DIR).`,
      exitCode: 2,
    };
  }
  const mcp = new McpManager({ servers: config.mcpServers, workspaceRoot: workspace.root });
  const reminders = new Reminders();
  const registry = new ToolRegistry(
    [
      ...withJournal(createFileTools(), () => journals.current()),
      createRemindTool(reminders),
      ...createWebTools({ search: config.search, fetch: config.fetch }),
      ...createSystemTools(),
    ],
    [mcp],
  );

  const thinkIntervalMs = opts.flags.thinkIntervalMs ?? config.thinkIntervalMs;
  const settings: AgentSettings = {
    thinkIntervalMs,
    maxAutonomousCycles: config.maxAutonomousCycles,
    tokenBudgetPerHour: config.tokenBudgetPerHour,
    tokenBudgetPerDay: config.tokenBudgetPerDay,
    // Print mode runs its cycles back to back: no pacing there.
    maxIntervalMs:
      opts.background === false
        ? thinkIntervalMs
        : Math.max(config.pacing.maxIntervalMs, thinkIntervalMs),
    maxConsecutiveFailures: config.maxConsecutiveFailures,
    backoff: config.backoff,
    toolResultBudgetChars: config.toolResultBudgetChars,
    maxToolCallsPerReply: config.maxToolCallsPerReply,
    approval: { ...config.approval },
    sendReasoningInHistory: config.quirks.sendReasoningInHistory,
    lang: resolveLanguage(config.language, env),
    // A local model's window is the context it is loaded with; remote ones are looked up.
    contextWindow:
      config.provider === 'local'
        ? (config.contextWindow ?? config.contextSize ?? 8192)
        : contextWindowFor(provider.model, config),
  };

  const { agent, currentSession } = wireAgent({
    provider,
    registry,
    workspace,
    sessions: store,
    session,
    personas,
    settings,
    config,
    home,
    journals,
    // The crash record (half-made changes rolled back, lost results written) is finished by
    // the first turn's RESTORE, before any request is built.
    restore: () => finishCrashRecord(session, journals.current(), workspace),
    initialState: opts.initialState ?? (opts.flags.paused ? 'PAUSED' : 'THINKING'),
    mcp,
    reminders,
    alwaysOn: opts.background === false ? { idleSkip: false } : { watch: {} },
  });
  // After this function returns, so spawning and handshakes never hold up the first frame;
  // their tools join the prompt from the turn after they connect.
  setImmediate(() => mcp.start());

  if (opts.flags.debug) {
    const log = attachDebugLog(agent, home);
    warnings.push(`debug log: ${log.file}`);
  }

  let closed = false;
  return {
    ok: true,
    app: {
      agent,
      config,
      home,
      warnings,
      currentSessionId: () => currentSession().id,
      mcp,
      async close() {
        if (closed) return;
        closed = true;
        await agent.stop();
        await mcp.stop();
        currentSession().close();
        journals.close();
        lock.release();
      },
    },
  };
}
