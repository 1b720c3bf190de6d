/** The screen's completion list (loaded before the command table) names the table's commands. */
import { describe, expect, test } from 'vitest';
import { COMMANDS } from '../../src/commands/builtin.js';
import { COMMAND_NAMES } from '../../src/commands/complete.js';

describe('command names for completion', () => {
  test('are the command table names, in its order', () => {
    expect(COMMAND_NAMES).toEqual(COMMANDS.map((c) => c.name));
  });
});
