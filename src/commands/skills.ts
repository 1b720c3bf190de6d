/**
 * `/skills`: every skill with where it comes from and how often it was offered to the model
 * and used (from the ledgers), so a skill that never fires shows as one.
 */
import type { AfterCommand } from './context.js';
import type { CommandCall, SlashCommand } from './table.js';

async function listSkills({ ctx }: CommandCall): Promise<AfterCommand> {
  const view = ctx.skills;
  if (!view || view.names().length === 0) {
    ctx.say(
      'No skills. Put one in .agents/skills/NAME/SKILL.md (this folder) or <home>/skills/NAME/SKILL.md: see docs/SKILLS.md.',
    );
    return 'listen';
  }
  const dirs = (await ctx.sessions.list()).filter((s) => s.here).map((s) => s.dir);
  const rows = view.rows(dirs);
  const width = Math.max(...rows.map((r) => r.name.length)) + 1;
  const lines = rows.map(
    (r) =>
      `  /${r.name.padEnd(width)} ${r.source.padEnd(9)} offered ${r.offered}, used ${r.used}${r.listed ? '' : ' (not in the prompt: catalogue full)'}\n    ${oneLine(r.description)}  [${r.shown}]`,
  );
  const problems =
    view.warnings.length > 0 ? ['', 'Problems:', ...view.warnings.map((w) => `  ${w}`)] : [];
  ctx.say(
    [
      'Skills (run one as /NAME ARGS; the model loads one with skill("NAME")):',
      ...lines,
      ...problems,
    ].join('\n'),
  );
  return 'listen';
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 100 ? `${flat.slice(0, 99)}…` : flat;
}

export const SKILLS_COMMAND: SlashCommand = {
  name: 'skills',
  usage: '/skills',
  description: 'command.skills',
  run: listSkills,
};
