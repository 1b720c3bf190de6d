import { t, type Lang, type MessageKey } from '../i18n/messages.js';
import type { AfterCommand, CommandContext } from './context.js';

/** The message-table keys of the commands' descriptions. */
type CommandDescriptionKey = Extract<MessageKey, `command.${string}`>;

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

/**
 * The command table as users read it: each command's usage and its description, in table
 * order. `/help`, the help overlay, README.md and docs/KEYS.md are all made from it (a test
 * fails when the documents drift from the commands).
 */
export function commandRows(
  commands: readonly SlashCommand[],
  lang: Lang,
): { usage: string; description: string }[] {
  return commands.map((c) => ({ usage: c.usage, description: t(lang, c.description) }));
}

/** The command table in Markdown (README.md, docs/KEYS.md). */
export function commandsMarkdown(commands: readonly SlashCommand[], lang: Lang = 'en'): string {
  const cell = (s: string): string => s.replace(/\|/g, '\\|');
  return [
    '| Command | What it does |',
    '|---|---|',
    ...commandRows(commands, lang).map((r) => `| \`${cell(r.usage)}\` | ${cell(r.description)} |`),
  ].join('\n');
}
