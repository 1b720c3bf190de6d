import type { Lang, MessageKey } from '../i18n/messages.js';

/** The message-table keys of the commands' descriptions. */
export type CommandDescriptionKey = Extract<MessageKey, `command.${string}`>;
import type { Agent } from '../agent/agent.js';
import type { LoadedConfig } from '../config/load.js';
import type { Session, SessionStore } from '../history/index.js';
import type { PersonaSet } from '../app/personas.js';

/** What commands can reach beyond the agent itself. */
export interface CommandEnv {
  sessions: SessionStore;
  personas: PersonaSet;
  config: LoadedConfig;
  switchSession(next: Session): void;
  currentSessionId(): string;
  /** Where /export writes transcripts. */
  exportsDir: string;
  /** `<app home>/models`: the downloaded models `/model` lists and switches between. */
  modelsDir: string;
  /** The current session (for /export). */
  currentSession(): Session;
}

export interface CommandCall {
  agent: Agent;
  args: string;
  env: CommandEnv;
  signal: AbortSignal;
  say(text: string): void;
  /** The language to answer in. */
  lang: Lang;
}

/**
 * After a command: `listen` returns the floor to the user (the command answered them),
 * `keep` leaves the machine where the command put it.
 */
export type AfterCommand = 'listen' | 'keep';

export interface SlashCommand {
  name: string;
  usage: string;
  /** Its one-line description in the message table. */
  description: CommandDescriptionKey;
  run(call: CommandCall): Promise<AfterCommand> | AfterCommand;
}
