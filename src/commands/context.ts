/**
 * What a slash command may see and do: a few verbs and read-only views, never the agent. The
 * agent's side builds it (src/agent/commandContext.ts); tests build a fake one. A command
 * answers with an outcome, and the COMMAND phase acts on it (a command never moves the
 * machine itself, apart from the pause and resume verbs the user asked for by name).
 */
import type { LoadedConfig } from '../config/load.js';
import type { ConfigInput } from '../config/schema.js';
import type { HistoryMessage } from '../core/messages.js';
import type { Session, SessionInfo } from '../history/index.js';
import type { Lang } from '../i18n/messages.js';
import type { Journal } from '../journal/journal.js';
import type { EditorOutcome } from '../core/editor.js';
import type { FolderMemory } from '../knowledge/folderMemory.js';
import type { CycleRecord } from '../api/ledger.js';
import type { McpServerStatus } from '../mcp/status.js';
import type { Persona } from '../personas/load.js';
import type { TurnTrace } from '../api/trace.js';
import type { Provider } from '../providers/types.js';
import type { Reminder } from '../reminders/reminders.js';
import type { Tool, ToolApprovalPolicy, ToolKind } from '../tools/types.js';
import type { Workspace } from '../tools/workspace.js';
import type { InstructionReport } from '../instructions/instructionSet.js';
import type { SkillsView } from '../skills/view.js';

/**
 * After a command: `listen` gives the floor back to the user (the command answered them),
 * `keep` leaves the machine where the command's verbs put it (/pause, /resume).
 */
export type AfterCommand = 'listen' | 'keep';

/** What the runner hands back to the COMMAND phase. */
export interface CommandOutcome {
  after: AfterCommand;
  /** A skill run as `/name args`: this text is the user's turn, answered by the model. */
  prompt?: string;
}

/** What /cost reports: tokens spent this session and against the budgets. */
export interface Spending {
  sessionTokens: number;
  cachedTokens: number;
  lastHour: number;
  lastDay: number;
  /** 0: no limit. */
  perHour: number;
  /** 0: no limit. */
  perDay: number;
}

export interface CommandContext {
  /** The language to answer in. */
  readonly lang: Lang;
  /** Tells the user something (a notice). */
  say(text: string): void;

  pause(): void;
  resume(): void;
  /** Asks the app to quit (/exit). */
  quit(): void;
  /** Asks the app to go on in the background without this screen (/detach). */
  detach(): void;
  /** Empties the conversation on the screen; the history stays as it is (/clear). */
  clearScreen(): void;
  /** Compresses the history now; returns text the compactor has not said itself. */
  compactNow(signal: AbortSignal): Promise<string | undefined>;

  readonly sessions: {
    list(): Promise<SessionInfo[]>;
    create(): Promise<Session>;
    /**
     * Opens a session of the store by id and makes it this run's kind's (the user opening a
     * script's session makes it theirs). Rejects with the store's error for an unknown id.
     */
    open(id: string): Promise<Session>;
  };
  /** The current session's id. */
  sessionId(): string;
  /** The current session's whole transcript, archived part first (/export). */
  transcript(): HistoryMessage[];
  /** Makes `next` current: the agent, the journal, the ledger and the screen follow. */
  switchSession(next: Session): void;

  readonly personas: { readonly current: Persona; readonly list: readonly Persona[] };
  /** Switches by id or name; the persona, or undefined when none matches. */
  switchPersona(nameOrId: string): Persona | undefined;
  /**
   * Writes settings into config.json the way the setup wizard does (the rest of the file
   * kept as written); the file written, or what went wrong and how to fix it.
   */
  saveSettings(patch: ConfigInput): Promise<{ file: string } | { problem: string }>;

  /** The provider in use (its id and model). */
  provider(): Pick<Provider, 'id' | 'model'>;
  /** Uses `provider` from the next request on. */
  setProvider(provider: Provider): void;
  /** The loaded configuration (what a new provider is built from). */
  readonly config: LoadedConfig;
  /** `<app home>/models`: the downloaded models `/model` lists and switches between. */
  readonly modelsDir: string;

  /** The approval policy per tool kind, as it is now. */
  approval(): Readonly<Record<ToolKind, ToolApprovalPolicy>>;
  setApproval(kind: ToolKind, policy: ToolApprovalPolicy): void;
  /** The registry's tools, read-only (/tools). */
  readonly tools: { list(): readonly Tool[]; signature(name: string): string };

  /** The last turns' traces, oldest first (/trace). */
  traces(): readonly TurnTrace[];
  /** The cycle ledger's recent records (/ledger, /cost). */
  ledger(): readonly CycleRecord[];
  spending(): Spending;
  readonly reminders: {
    pending(): readonly Reminder[];
    /** Sets a reminder for the user; the text of what is wrong, if anything. */
    add(at: number, what: string): Reminder | string;
  };

  readonly workspace: Workspace;
  /** The current session's change journal (absent: changes are not journaled). */
  journal?(): Journal;
  /** The MCP servers' states (absent when the app runs without them). */
  readonly mcp?: { status(): McpServerStatus[] };
  /** Where /export writes transcripts. */
  readonly exportsDir: string;
  /** The instruction files (/context, /init); absent when the app runs without them. */
  readonly instructions?: InstructionsPort;
  /** The folder's memory (/memory, and /undo of a memory change); absent: none kept. */
  readonly memory?: FolderMemory;
  /** The skills (/skills, `/name args`); absent when the app runs without them. */
  readonly skills?: SkillsView;
  /**
   * Opens `file` in the user's editor, the terminal handed over until it exits, then draws
   * the screen again (/memory edit). Absent where no terminal can be handed over: print
   * mode, an attached screen, a background agent.
   */
  editFile?(file: string): EditorOutcome;
}

/** What /context and /init use of the instruction files (src/instructions). */
export interface InstructionsPort {
  /** What is loaded, its sizes, what was cut or refused (see InstructionSet.report). */
  report(): InstructionReport;
  /** The user has seen the list: Cogito's own changes to the files apply from the next turn. */
  markSeen(): void;
  /** Queues a message for the model as if the user typed it (answered after the command). */
  queue(text: string): void;
}
