/**
 * The skills of one run, put together for the app: found in the workspace, the home and
 * Cogito's own folder, with the trust file in the home's data; the built-in commands' names
 * are reserved (a skill of that name loads, but `/name` stays the built-in's).
 */
import { appPaths, builtinSkillsDir } from '../config/paths.js';
import type { Tool } from '../tools/types.js';
import { skillRoots } from './discover.js';
import { SkillLibrary } from './library.js';
import { createSkillTool } from './tool.js';
import { SkillTrust } from './trust.js';
import { skillsView, type SkillsView } from './view.js';

export interface OpenedSkills {
  tool: Tool;
  catalogue: string;
  view: SkillsView;
  warnings: readonly string[];
}

export function openSkills(
  workspace: string,
  home: string,
  warn: (message: string) => void,
  /** The built-in commands' names: `/name` stays theirs. */
  reserved: readonly string[],
): OpenedSkills {
  const trust = SkillTrust.inData(appPaths(home).data, warn);
  const library = new SkillLibrary(
    skillRoots(workspace, home, builtinSkillsDir()),
    workspace,
    trust,
    reserved,
  );
  return {
    tool: createSkillTool(library),
    catalogue: library.catalogue.text,
    view: skillsView(library),
    warnings: library.warnings,
  };
}
