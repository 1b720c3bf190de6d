/**
 * Tab completion of command names, apart from the command table: the screen completes from
 * its first frame, before the commands (and all they import) are loaded. The list is the
 * table's names in its order; test/commands/complete.test.ts holds the two equal.
 */
export const COMMAND_NAMES: readonly string[] = [
  'help',
  'stop',
  'pause',
  'resume',
  'new',
  'compact',
  'sessions',
  'persona',
  'model',
  'tools',
  'skills',
  'trace',
  'export',
  'changes',
  'undo',
  'approve',
  'mcp',
  'clear',
  'exit',
  'detach',
  'cost',
  'remind',
  'ledger',
  'context',
  'init',
  'memory',
];

/**
 * Command names that start with `prefix` (for Tab completion), e.g. "/pe" → ["/persona"];
 * skills run as commands (`skills`) follow the built-ins.
 */
export function completeCommand(prefix: string, skills: readonly string[] = []): string[] {
  const p = prefix.startsWith('/') ? prefix.slice(1).toLowerCase() : prefix.toLowerCase();
  return [...COMMAND_NAMES, ...skills.filter((s) => !COMMAND_NAMES.includes(s))]
    .filter((n) => n.startsWith(p))
    .map((n) => `/${n}`);
}
