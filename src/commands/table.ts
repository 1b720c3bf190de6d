import type { MessageKey } from '../i18n/messages.js';
import type { AfterCommand, CommandContext } from './context.js';

/** The message-table keys of the commands' descriptions. */
export type CommandDescriptionKey = Extract<MessageKey, `command.${string}`>;

/** One command's call: what it may use, the text after its name, and the turn's signal. */
export interface CommandCall {
  ctx: CommandContext;
  args: string;
  signal: AbortSignal;
}

export interface SlashCommand {
  name: string;
  usage: string;
  /** Its one-line description in the message table. */
  description: CommandDescriptionKey;
  run(call: CommandCall): Promise<AfterCommand> | AfterCommand;
}
