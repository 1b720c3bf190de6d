/**
 * The `skill` tool: `skill("name")` loads one skill's instructions (and lists its other
 * files); `skill("name", "path")` reads one of those files, never outside the skill's folder.
 * A workspace skill the user has not trusted yet asks first, showing its SKILL.md on the
 * approval card; the yes is remembered for that exact content (trust.ts).
 */
import type { Tool, ToolArg } from '../tools/types.js';
import { fail, ok } from '../tools/types.js';
import { editDistance } from '../core/editDistance.js';
import { listSkillFiles, readSkillFile } from './files.js';
import type { SkillLibrary, SkillText } from './library.js';

/** The card shows at most this much of the SKILL.md. */
const CARD_CHARS = 4000;

export function createSkillTool(library: SkillLibrary): Tool {
  // What the card showed, per SKILL.md: the run trusts exactly that content.
  const asked = new Map<string, string>();
  const lookup = (args: readonly ToolArg[]): SkillText | string => {
    const name = String(args[0] ?? '').trim();
    const skill = library.find(name);
    if (!skill) return unknown(name, library);
    const t = library.read(skill);
    return 'problem' in t ? `${t.problem}.` : t;
  };
  return {
    name: 'skill',
    description:
      'Load a skill (its instructions and a list of its files); with a path, read one file of that skill',
    kind: 'read',
    params: [
      { name: 'name', type: 'string', description: 'the skill name from the catalogue' },
      {
        name: 'path',
        type: 'string',
        optional: true,
        description: "a file inside the skill's folder",
      },
    ],
    async needsApproval(args) {
      const t = lookup(args);
      if (typeof t === 'string' || library.isTrusted(t)) return undefined;
      asked.set(t.skill.file, t.hash);
      const shown = t.text.length > CARD_CHARS ? `${t.text.slice(0, CARD_CHARS)}\n[…]` : t.text;
      return {
        reason: `the workspace skill "${t.skill.name}" (${t.skill.shown}) is not trusted yet: its instructions come from this folder, not from you. Yes trusts it until its SKILL.md changes.`,
        detail: shown,
        // "Always" for the tool must not trust every other workspace skill with this one.
        everyTime: true,
      };
    },
    async run(args) {
      const t = lookup(args);
      if (typeof t === 'string') return fail('not_found', t);
      const { skill } = t;
      if (!library.isTrusted(t)) {
        // Only a yes on the card reaches here for an untrusted skill; the content must be the
        // one the card showed.
        if (asked.get(skill.file) !== t.hash)
          return fail(
            'denied',
            `${skill.shown} changed while you were asked about it; call skill("${skill.name}") again to see the new version.`,
          );
        library.trust.trust(skill.file, t.hash);
      }
      const rel = args[1];
      if (typeof rel === 'string' && rel.trim() !== '') {
        const file = readSkillFile(skill.dir, rel);
        if (!file.ok)
          return fail('invalid_args', `skill("${skill.name}", "${rel}"): ${file.problem}.`);
        return ok(file.text, `${skill.name}/${file.rel}`);
      }
      const { files, more } = listSkillFiles(skill.dir);
      const listing =
        files.length === 0
          ? ''
          : `\n\nFiles of this skill (read one with skill("${skill.name}", "path")):\n${files.map((f) => `- ${f}`).join('\n')}${more > 0 ? `\n- … and ${more} more` : ''}`;
      return ok(
        `Skill "${skill.name}" (${skill.source === 'cogito' ? "Cogito's own" : skill.source}, ${skill.shown}):\n\n${t.body}${listing}`,
        `${skill.name} (${t.body.length} chars)`,
      );
    },
  };
}

function unknown(name: string, library: SkillLibrary): string {
  const names = library.skills.map((s) => s.name);
  if (names.length === 0) return `There are no skills, so there is no skill "${name}".`;
  const close = names.map((n) => ({ n, d: editDistance(n, name) })).sort((a, b) => a.d - b.d)[0];
  const hint = close && close.d <= 3 ? ` Did you mean "${close.n}"?` : '';
  return `There is no skill "${name}".${hint} Skills: ${names.join(', ')}.`;
}
