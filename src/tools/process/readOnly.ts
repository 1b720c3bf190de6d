/**
 * Which command lines only read: those run without asking, with the workspace mounted
 * read-only as well (so a command on the list that could write after all, such as
 * `git diff --output=f`, fails instead of writing). A line is on the list when it has no
 * shell operators (no `;`, `|`, `&`, redirections, substitutions or newlines) and its
 * first words are an entry's words.
 */

/** Commands that read and print; `git` ones that never run hooks or a pager here. */
export const DEFAULT_READ_ONLY_COMMANDS: readonly string[] = [
  'ls',
  'pwd',
  'cat',
  'head',
  'tail',
  'wc',
  'grep',
  'rg',
  'file',
  'stat',
  'du',
  'tree',
  'which',
  'date',
  'uname',
  'whoami',
  'echo',
  'git status',
  'git log',
  'git diff',
  'git show',
  'git branch',
  'git ls-files',
];

/** Shell syntax that could chain, redirect or substitute: any of it and the line must ask. */
const SHELL_OPERATORS = /[;&|<>`$(){}\\\n\r]/;

/** True when `command` is one of `list`'s read-only commands (see the module comment). */
export function isReadOnlyCommand(command: string, list: readonly string[]): boolean {
  if (SHELL_OPERATORS.test(command)) return false;
  const words = command.trim().split(/\s+/);
  return list.some((entry) => {
    const want = entry.trim().split(/\s+/);
    return want.length > 0 && want.every((w, i) => words[i] === w);
  });
}
