/**
 * Skills as slash commands: `/name args` sends the skill's instructions as the user's turn,
 * with `$ARGUMENTS` (all the args) and `$1` … `$9` (one word each; "quoted words" are one)
 * put in. So a user's command is a skill whose body has an argument placeholder. The turn's
 * message starts with a header line naming the skill, which is how its use is counted from
 * the ledger and the history.
 */
import type { SkillLibrary } from './library.js';

export { SKILL_RUN_HEADER } from '../ledger/skillRun.js';

/** The user's turn for `/name args`, or undefined when no skill has that name. */
export function expandSkillCommand(
  library: SkillLibrary,
  name: string,
  args: string,
): { text: string } | { problem: string } | undefined {
  const skill = library.find(name);
  if (!skill) return undefined;
  const t = library.read(skill);
  if ('problem' in t) return { problem: `${t.problem}. Check the file, or restart Cogito.` };
  const trimmed = args.trim();
  const words = splitArgs(trimmed);
  let used = false;
  const body = t.body.replace(/\$(ARGUMENTS|[1-9])/g, (_m, which: string) => {
    used = true;
    return which === 'ARGUMENTS' ? trimmed : (words[Number(which) - 1] ?? '');
  });
  // Args without a placeholder are not dropped: they follow the instructions.
  const tail = !used && trimmed !== '' ? `\n\nARGUMENTS: ${trimmed}` : '';
  const head = `Skill "${skill.name}", run by the user as /${skill.name}${trimmed ? ` ${trimmed}` : ''} (${skill.shown}):`;
  return { text: `${head}\n\n${body}${tail}` };
}

/** Words of `args`; a "double" or 'single' quoted run is one word, without its quotes. */
export function splitArgs(args: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(args)) !== null) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}
