import { formatCall } from '../protocol/format.js';
import type { ToolArg, ToolContext } from '../tools/types.js';
import type { ChangeStart } from './records.js';

/**
 * What every change record starts with, from the call that made it: its id and time, the turn
 * (and reply) it belongs to, what started that turn, the call's place and its text. The file
 * tools' decorator and `run` both write it.
 */
export function changeHeader(
  ctx: ToolContext,
  id: string,
  now: number,
  tool: string,
  args: readonly ToolArg[],
): Omit<ChangeStart, 'op' | 'paths' | 'made'> {
  const change = ctx.change;
  return {
    id,
    at: now,
    turn: change?.turn ?? `t${now.toString(36)}`,
    ...(change?.reply !== undefined && change.reply !== change.turn ? { reply: change.reply } : {}),
    trigger: change?.trigger ?? 'user',
    ...(change ? { callIndex: change.callIndex } : {}),
    tool,
    call: formatCall(tool, args),
  };
}
