import { t } from '../i18n/messages.js';
import type { Agent, CommandRunner } from '../agent/agent.js';
import { COMMANDS } from './builtin.js';
import type { CommandEnv } from './table.js';

/** Command names that start with `prefix` (for Tab completion), e.g. "/pe" → ["/persona"]. */
export function completeCommand(prefix: string): string[] {
  const p = prefix.startsWith('/') ? prefix.slice(1).toLowerCase() : prefix.toLowerCase();
  return COMMANDS.filter((c) => c.name.startsWith(p)).map((c) => `/${c.name}`);
}

/**
 * The COMMAND phase: parses `/name args`, runs it and reports through notices. An unknown
 * command answers with the list. After an answering command the floor goes back to the user.
 */
export function createCommandRunner(env: CommandEnv): CommandRunner {
  return async (text: string, agent: Agent, signal: AbortSignal) => {
    const match = /^\/(\S*)\s*([\s\S]*)$/.exec(text.trim());
    const name = (match?.[1] ?? '').toLowerCase();
    const args = match?.[2] ?? '';
    const say = (text: string): void => agent.notice(text);
    const lang = agent.settings.lang;
    const command = COMMANDS.find((c) => c.name === name);
    if (!command) {
      say(t(lang, 'cmd.unknown', { name, list: COMMANDS.map((c) => `/${c.name}`).join(' ') }));
      agent.listen();
      return true;
    }
    try {
      const after = await command.run({ agent, args, env, signal, say, lang });
      if (after === 'listen') agent.listen();
    } catch (err) {
      say(t(lang, 'cmd.failed', { name, error: (err as Error).message }));
      agent.listen();
    }
    return true;
  };
}
