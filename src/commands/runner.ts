import { t } from '../i18n/messages.js';
import { COMMANDS } from './builtin.js';
import type { CommandContext, CommandOutcome } from './context.js';

export { completeCommand } from './complete.js';

/** Runs a command line against a context; the outcome tells the caller what comes next. */
type CommandRunner = (
  text: string,
  ctx: CommandContext,
  signal: AbortSignal,
) => Promise<CommandOutcome>;

/**
 * The COMMAND phase's work: parses `/name args`, runs it and reports through `ctx.say`. An
 * unknown command answers with the list, a failing one with its error; both give the floor
 * back to the user, as every answering command does.
 */
export const runCommand: CommandRunner = async (text, ctx, signal) => {
  const match = /^\/(\S*)\s*([\s\S]*)$/.exec(text.trim());
  const name = (match?.[1] ?? '').toLowerCase();
  const args = match?.[2] ?? '';
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    // Not built in: a skill of that name runs as the user's turn (built-ins win a clash).
    const skill = ctx.skills?.run(name, args);
    if (skill && 'text' in skill) return { after: 'keep', prompt: skill.text };
    if (skill) {
      ctx.say(`/${name}: ${skill.problem}`);
      return { after: 'listen' };
    }
    const skills = (ctx.skills?.names() ?? []).map((n) => `/${n}`);
    const list = [...COMMANDS.map((c) => `/${c.name}`), ...skills].join(' ');
    ctx.say(t(ctx.lang, 'cmd.unknown', { name, list }));
    return { after: 'listen' };
  }
  try {
    return { after: await command.run({ ctx, args, signal }) };
  } catch (err) {
    ctx.say(t(ctx.lang, 'cmd.failed', { name, error: (err as Error).message }));
    return { after: 'listen' };
  }
};
