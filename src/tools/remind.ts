/** `remind(when, what)`: the model sets itself a time to look at something again. */
import { parseWhen } from '../reminders/when.js';
import type { Reminders } from '../reminders/reminders.js';
import type { Tool, ToolArg, ToolResult } from './types.js';
import { fail, ok } from './types.js';

/** Creates the `remind` tool over the agent's reminders; `now` is the agent's clock. */
export function createRemindTool(reminders: Reminders, now: () => number = Date.now): Tool {
  return {
    name: 'remind',
    description:
      'Wake yourself up at a time to do something: when is 2026-12-02T09:00 (local time), 09:00, or a delay like 10m, 2h, 1d. Use it instead of checking again and again.',
    // It changes nothing outside the agent, so it needs no approval.
    kind: 'read',
    params: [
      { name: 'when', type: 'string', description: 'a date-time, a time of day, or a delay' },
      { name: 'what', type: 'string', description: 'what to do then' },
    ],
    async run(args: readonly ToolArg[]): Promise<ToolResult> {
      const when = parseWhen(String(args[0]), now());
      if (!when.ok) return fail('invalid_args', when.error);
      if (when.at <= now()) {
        return fail('invalid_args', `${String(args[0])} is in the past: give a later time`);
      }
      const added = reminders.add(when.at, String(args[1]), 'model');
      if (typeof added === 'string') return fail('invalid_args', added);
      const at = new Date(added.at).toISOString().slice(0, 16);
      return ok(`Reminder set for ${at}Z: ${added.what}`, `remind ${at}Z`);
    },
  };
}
