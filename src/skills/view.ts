/**
 * What the slash commands see of the skills: run one as `/name args`, list them with their
 * counts (/skills), and their names (/help, completion).
 */
import type { SkillSource } from './discover.js';
import { expandSkillCommand } from './command.js';
import type { SkillLibrary } from './library.js';
import { countSkillUse } from './usage.js';

export interface SkillRow {
  name: string;
  description: string;
  source: SkillSource;
  shown: string;
  /** Described in the prompt's catalogue (false: cut by the caps). */
  listed: boolean;
  offered: number;
  used: number;
}

export interface SkillsView {
  names(): readonly string[];
  run(name: string, args: string): { text: string } | { problem: string } | undefined;
  rows(sessionDirs: readonly string[]): SkillRow[];
  /** Start-up problems, for /skills to repeat. */
  readonly warnings: readonly string[];
}

export function skillsView(library: SkillLibrary, now: () => number = Date.now): SkillsView {
  const names = library.skills.map((s) => s.name);
  const listed = new Set(library.catalogue.listed);
  // Recorded at start, so "offered" counts from the first run that saw the skill.
  const firstSeen = library.trust.firstSeen(library.workspace, names, now());
  return {
    names: () => names,
    run: (name, args) => expandSkillCommand(library, name, args),
    warnings: library.warnings,
    rows: (dirs) => {
      const use = countSkillUse(dirs, names, firstSeen, listed);
      return library.skills.map((s) => ({
        name: s.name,
        description: s.description,
        source: s.source,
        shown: s.shown,
        listed: listed.has(s.name),
        offered: use.get(s.name)?.offered ?? 0,
        used: use.get(s.name)?.used ?? 0,
      }));
    },
  };
}
