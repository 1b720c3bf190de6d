/**
 * The skills of this run: found once at start (so the catalogue in the system prompt never
 * changes between turns), each one's SKILL.md read again when it is used (so an edit counts,
 * and a workspace skill's trust is checked against what is really there).
 */
import { readFileSync } from 'node:fs';
import { buildCatalogue, type Catalogue } from './catalogue.js';
import { contentHash, discoverSkills, type Skill, type SkillRoot } from './discover.js';
import { parseFrontMatter } from '../core/frontMatter.js';
import type { SkillTrust } from './trust.js';

/** A skill's SKILL.md as it is now. */
export interface SkillText {
  skill: Skill;
  /** The whole file (what the trust hash covers, shown on the approval card). */
  text: string;
  /** The instructions after the front matter. */
  body: string;
  hash: string;
}

export class SkillLibrary {
  readonly skills: readonly Skill[];
  readonly catalogue: Catalogue;
  readonly warnings: readonly string[];

  constructor(
    roots: readonly SkillRoot[],
    readonly workspace: string,
    readonly trust: SkillTrust,
    reserved: readonly string[] = [],
  ) {
    const found = discoverSkills(roots, { workspace, reserved });
    this.skills = found.skills;
    this.catalogue = buildCatalogue(found.skills);
    const cut = this.catalogue.cut;
    this.warnings = [
      ...found.warnings,
      ...(cut.length > 0
        ? [
            `${cut.length} skill(s) are not described in the prompt (the catalogue holds ${this.catalogue.listed.length}): ${cut.join(', ')}. They still load by name; shorten descriptions or remove skills you do not use.`,
          ]
        : []),
    ];
  }

  find(name: string): Skill | undefined {
    return this.skills.find((s) => s.name === name);
  }

  /** The SKILL.md now, or why it cannot be read (deleted, broken since start). */
  read(skill: Skill): SkillText | { problem: string } {
    let text: string;
    try {
      text = readFileSync(skill.file, 'utf8');
    } catch (err) {
      return { problem: `${skill.shown} cannot be read now (${(err as Error).message})` };
    }
    const parsed = parseFrontMatter(text);
    const body = parsed.ok ? parsed.body : text;
    return { skill, text, body, hash: contentHash(text) };
  }

  /** Whether the skill's current text may reach the model without asking. */
  isTrusted(t: SkillText): boolean {
    return t.skill.source !== 'workspace' || this.trust.trusted(t.skill.file, t.hash);
  }
}
