/**
 * The verbs the agent hands to the parts the root builds around it (the slash commands, the
 * compactor): what they may read and the few things they may ask. Each verb is the agent's
 * own act, so these parts never emit events, write settings or move the machine themselves.
 */
import type { Provider } from '../providers/types.js';
import type { Reminder } from '../reminders/reminders.js';
import type { AgentStore } from '../store/agentStore.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolKind } from '../tools/types.js';
import type { Workspace } from '../tools/workspace.js';
import type { AgentSettings } from './agentDeps.js';
import type { AlwaysOn } from './alwaysOn.js';
import type { ApprovalPolicy } from '../pipeline/toolRunner.js';

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
