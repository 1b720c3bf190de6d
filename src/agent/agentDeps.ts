import type { Lang } from '../i18n/messages.js';
import type { RecoveryReport } from '../journal/recover.js';
import type { TokenCounter } from '../memory/tokenCounter.js';
import type { TurnHistory } from '../pipeline/saver.js';
import type { Provider } from '../providers/types.js';
import type { BackoffSettings } from '../core/backoff.js';
import type { Timers } from '../scheduler/scheduler.js';
import type { Reminder, Reminders } from '../reminders/reminders.js';
import type { AgentStore } from '../store/agentStore.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolKind } from '../tools/types.js';
import type { Workspace } from '../tools/workspace.js';
import type { CommandOutcome } from '../commands/context.js';
import type { ApprovalPolicy } from '../pipeline/toolRunner.js';
import type { CycleRecord } from '../api/ledger.js';
import type { AgentListener } from '../api/events.js';
import type { AlwaysOn } from './alwaysOn.js';
import type { InputJournal, RestoredInput } from './inputQueue.js';
import type { AnswerJournal } from './approvalGate.js';

/**
 * What the user set for the agent (config, flags, /approve): one frozen value. The agent
 * replaces it whole through its settings command (see settings.ts); nothing writes it in
 * place, so a reference taken earlier keeps what it saw.
 */
export interface AgentSettings {
  readonly thinkIntervalMs: number;
  readonly maxAutonomousCycles: number;
  readonly tokenBudgetPerHour: number;
  readonly maxConsecutiveFailures: number;
  readonly backoff: Readonly<BackoffSettings>;
  readonly toolResultBudgetChars: number;
  readonly approval: Readonly<Record<ToolKind, ApprovalPolicy>>;
  /**
   * Kinds a print-mode run's `--approve` allowed: their calls that ask by themselves (an
   * overwrite) run too, as after an "always" answer; "every time" questions still ask.
   */
  readonly approvedKinds?: readonly ToolKind[];
  readonly sendReasoningInHistory: boolean;
  /** `native`: the tools go with each request as JSON schemas (config `toolCalls`). */
  readonly toolCalls?: 'text' | 'native';
  /** The model's context window in tokens; requests are fitted under it. */
  readonly contextWindow: number;
  /** The language of what the agent says to the user (pause reasons, command output). */
  readonly lang: Lang;
  /** pacing.maxIntervalMs: the longest rest between looks (default 30 minutes). */
  readonly maxIntervalMs?: number;
  /** 0 = no daily budget (the default: none, for tests; the config has its own default). */
  readonly tokenBudgetPerDay?: number;
  /** Tool calls run per reply at most; the rest come back as not run (default 25). */
  readonly maxToolCallsPerReply?: number;
  /** pacing.cacheTtlSeconds in ms: the prompt-cache lifetime pacing respects (absent: none). */
  readonly cacheTtlMs?: number;
  /** watch.minWakeIntervalMs and watch.maxWakesPerHour (absent: 30 s and 20 an hour). */
  readonly changeWakes?: { readonly minIntervalMs: number; readonly maxPerHour: number };
  /** watch.resumeAfterWaitMs (absent: 0, an autonomous question waits for the user alone). */
  readonly resumeAfterWaitMs?: number;
  /** Requests one turn's tool chain may make before it pauses (default 25). */
  readonly maxStepsPerTurn?: number;
}

/**
 * Runs a slash command (already bound to its narrow context, see src/agent/commandContext.ts);
 * the COMMAND phase acts on the outcome it returns.
 */
export type CommandHandler = (text: string, signal: AbortSignal) => Promise<CommandOutcome>;

/** The COMPACT phase and /compact: compresses when due (or always, when forced). */
export type CompactFn = (signal: AbortSignal, force: boolean) => Promise<string | undefined>;

/**
 * What follows the current session and what the agent reports of it as its own events: the
 * change journal's file count (`files_changed`) and the cycle ledger (`ledger_loaded`,
 * `cycle_recorded`). The root builds these; only the agent speaks of them.
 */
export interface SessionFeeds {
  /** Told after every switch to another session (after the history points at it). */
  onSwitch(listener: () => void): unknown;
  /** Files changed (and not undone) in the current session; `onChange` hears each change. */
  files?: { count(): number; onChange(listener: () => void): unknown };
  /** Background commands running now (`run` with background: true); `onChange` hears each start and end. */
  commands?: { count(): number; onChange(listener: () => void): unknown };
  ledger?: {
    /**
     * Opens the current session's ledger (at start, after a switch): its records so far.
     * `warn` hears what was found damaged, `failed` a write that failed (the agent pauses).
     */
    open(
      warn: (message: string) => void,
      failed?: (problem: string) => void,
    ): readonly CycleRecord[];
    /** Writes one record to the open ledger. */
    append(record: CycleRecord): void;
    /** The recorder: hears the agent's events and hands each turn's record to `write`. */
    recorder(write: (record: CycleRecord) => void): AgentListener;
  };
}

/** Tool sources still connecting, and a bounded wait for them. */
export interface ToolsReady {
  /** The names of the sources whose first start is still under way. */
  starting(): string[];
  /** Resolves once none is starting, after the configured bound at most, or on `signal`. */
  settled(signal: AbortSignal): Promise<void>;
}

export interface AgentDeps {
  store: AgentStore;
  provider: Provider;
  registry: ToolRegistry;
  workspace: Workspace;
  history: TurnHistory;
  settings: AgentSettings;
  systemPrompt(): string;
  /**
   * Builds the slash-command runner from the agent's verbs (handed over once the agent
   * exists, so the root never reaches for an agent it has not built yet).
   */
  commands?(verbs: AgentVerbs): CommandHandler;
  /**
   * Builds the COMPACT phase from the agent's verbs: it compresses the history when it is due
   * (or always, when forced) and returns the text it has not told the user itself.
   */
  compact?(verbs: AgentVerbs): CompactFn;
  /**
   * The host's quit (the quit keys, /exit): quitting is the host's business, not an event.
   * Called after the command that asked has returned, never from inside an event. Absent:
   * /exit says there is nothing to quit.
   */
  quit?(): void;
  /**
   * The host's detach (/detach): the screen leaves and the agent goes on in the background.
   * Called like `quit`; absent (a background agent, print mode): /detach says there is
   * nothing to detach.
   */
  detach?(): void;
  /** The journal and ledger of the current session, reported as the agent's events. */
  feeds?: SessionFeeds;
  /** Tokens spent before this run (all sessions of the home), for the budgets. */
  spentBefore?: readonly { at: number; tokens: number }[];
  /**
   * The first turn's RESTORE: finishes the crash record the last run left (half-made changes
   * rolled back, lost results written to the history) before any request is built.
   */
  restore?(): Promise<RecoveryReport>;
  /**
   * Where queued and typed messages are kept durably (the session's inbox), and those a run
   * that was killed or stopped left untaken: the first user turn answers them, in order.
   */
  inputs?: { journal: InputJournal; restored: readonly RestoredInput[] };
  /**
   * Where approval answers are kept durably before they are applied, and the warnings about
   * those the last run left unfinished (told at start).
   */
  answers?: { journal: AnswerJournal; warnings: readonly string[] };
  counter?: TokenCounter;
  /**
   * Tool sources that start in the background (the MCP servers): a request is not built while
   * one is still making its first connection, so the first request already offers its tools.
   */
  toolsReady?: ToolsReady;
  /** API keys to remove from tool results (a key found in a file goes no further). */
  secrets?: readonly string[];
  timers?: Timers;
  /**
   * Watch the workspace and wake up on changes (`debounceMs` between batches; `ignore` and
   * `maxEntries` are watch.ignore and watch.maxEntries).
   */
  watch?: { debounceMs?: number; ignore?: readonly string[]; maxEntries?: number };
  /** The zero-token idle path's fingerprint of the workspace; default: a bounded tree walk. */
  fingerprint?(): Promise<string>;
  /** false: never skip a timer look (tests of other behaviour that want every cycle sent). */
  idleSkip?: boolean;
  /** The reminders the `remind` tool writes to (the `schedule` wake-up). */
  reminders?: Reminders;
  /**
   * A line for an autonomous turn's note asking the model to tidy the folder memory (it is
   * near its caps), or undefined; in the note, so the system prompt stays byte-identical.
   */
  memoryNudge?(): string | undefined;
}

/**
 * The verbs the agent hands to the parts the root builds around it (the slash commands, the
 * compactor): what they may read and the few things they may ask. Each verb is the agent's
 * own act, so these parts never emit events, write settings or move the machine themselves.
 */
export interface AgentVerbs {
  /** The settings in force now (a frozen value; `setApproval` replaces it). */
  settings(): AgentSettings;
  readonly registry: ToolRegistry;
  readonly workspace: Workspace;
  /** Read only: what the screen shows (traces, the ledger, token counts). */
  readonly store: AgentStore;
  readonly alwaysOn: AlwaysOn;
  /** Tells the user something (a notice). */
  notice(text: string, level?: 'info' | 'warn'): void;
  pause(): void;
  resume(): void;
  /** Asks the host to quit (/exit). */
  quit(): void;
  /** Asks the host to leave the agent running without its screen (/detach). */
  detach(): void;
  /** Empties the conversation on screen (/clear); the history stays. */
  clearScreen(): void;
  /** The history was replaced in place (a compression): the screen shows it as it is now. */
  historyReplaced(): void;
  /** Forces compression now (/compact); the text the compactor has not said. */
  compactNow(signal: AbortSignal): Promise<string | undefined>;
  provider(): Provider;
  /** Swaps the model provider (/model); the next request uses it. */
  setProvider(provider: Provider): void;
  /** The persona in use changed (/persona): the status bar shows it. */
  personaChanged(id: string): void;
  /** Sets one tool kind's approval policy (/approve); the next call follows it. */
  setApproval(kind: ToolKind, policy: ApprovalPolicy): void;
  /** Sets a reminder (/remind); the text of what is wrong, if anything. */
  remind(at: number, what: string): Reminder | string;
}
