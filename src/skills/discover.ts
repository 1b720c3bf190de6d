/**
 * Finding the skills (the open SKILL.md standard: a folder holding `SKILL.md`, whose front
 * matter names it and says when to use it). Only the front matter is read here: the body and
 * the folder's other files are read when the skill is used (skill.ts). Every problem (a bad
 * header, a missing name, two skills with one name) becomes a warning that names the file and
 * the fix; the skill is left out, and nothing throws.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseFrontMatter } from '../core/frontMatter.js';

/** Where a skill comes from, in the order a name clash is settled (the first wins). */
export type SkillSource = 'workspace' | 'home' | 'cogito';

export interface Skill {
  name: string;
  description: string;
  source: SkillSource;
  /** The skill's folder (its real path): the only place `skill(name, path)` reads from. */
  dir: string;
  /** Its SKILL.md (a real path). */
  file: string;
  /** How the user would write the file: relative to the workspace, or the full path. */
  shown: string;
}

export interface SkillSet {
  /** By name, each name once, sorted by name (so the catalogue's bytes never move). */
  skills: readonly Skill[];
  warnings: string[];
}

/** A folder skills are found in. */
export interface SkillRoot {
  dir: string;
  source: SkillSource;
}

/** The spec's limits: a name of 1–64 lowercase letters, digits and single hyphens. */
const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;
/** A SKILL.md larger than this is not a skill but a document: it is left out. */
export const MAX_SKILL_BYTES = 256 * 1024;

/**
 * The folders, in order of precedence: the workspace's `.agents/skills/` then
 * `.claude/skills/`, the user's `<home>/skills/`, and Cogito's own `skills/`.
 */
export function skillRoots(workspace: string, home: string, cogito: string): SkillRoot[] {
  return [
    { dir: path.join(workspace, '.agents', 'skills'), source: 'workspace' },
    { dir: path.join(workspace, '.claude', 'skills'), source: 'workspace' },
    { dir: path.join(home, 'skills'), source: 'home' },
    { dir: cogito, source: 'cogito' },
  ];
}

/**
 * Reads every root's `<name>/SKILL.md`. `reserved` are the built-in commands' names: a skill
 * may carry one (skill("name") loads it) but `/name` stays the built-in's, with a warning.
 * `workspace` is the workspace's real path: a workspace skill whose folder leads outside it
 * (a symlink) is refused.
 */
export function discoverSkills(
  roots: readonly SkillRoot[],
  opts: { workspace: string; reserved?: readonly string[] },
): SkillSet {
  const warnings: string[] = [];
  const byName = new Map<string, Skill>();
  const seenDirs = new Set<string>();
  for (const root of roots) {
    let realRoot: string;
    try {
      realRoot = realpathSync(root.dir);
    } catch {
      continue; // No such folder: nothing to find there.
    }
    // The home may be the project folder: its skills/ is then Cogito's own, read once.
    if (seenDirs.has(realRoot)) continue;
    seenDirs.add(realRoot);
    for (const entry of listDir(root.dir)) {
      const found = readSkill(root, entry, opts.workspace, warnings);
      if (!found) continue;
      const earlier = byName.get(found.name);
      if (earlier) {
        warnings.push(
          `Skill "${found.name}" in ${found.shown} is ignored: ${earlier.shown} has the same name and comes first (workspace, then home, then Cogito's own). Rename one of them (the name: line) to keep both.`,
        );
        continue;
      }
      byName.set(found.name, found);
    }
  }
  for (const name of opts.reserved ?? []) {
    const skill = byName.get(name);
    if (skill)
      warnings.push(
        `Skill "${name}" in ${skill.shown} has the name of the built-in command /${name}: typing /${name} runs the built-in. Rename the skill (the name: line and its folder) to run it as a command; skill("${name}") still loads it.`,
      );
  }
  const skills = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  return { skills, warnings };
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** One `<root>/<entry>/SKILL.md`, checked; undefined (with a warning when it matters). */
function readSkill(
  root: SkillRoot,
  entry: string,
  workspace: string,
  warnings: string[],
): Skill | undefined {
  if (entry.startsWith('.')) return undefined;
  const folder = path.join(root.dir, entry);
  let dir: string;
  try {
    if (!statSync(folder).isDirectory()) return undefined;
    dir = realpathSync(folder);
  } catch {
    return undefined;
  }
  const fileShown = shownPath(path.join(folder, 'SKILL.md'), root.source, workspace);
  if (root.source === 'workspace' && !inside(dir, workspace)) {
    warnings.push(
      `Skill folder ${shownPath(folder, root.source, workspace)} is ignored: it leads outside the workspace (to ${dir}). Copy the skill into the folder instead of linking to it.`,
    );
    return undefined;
  }
  const file = path.join(dir, 'SKILL.md');
  let text: string;
  try {
    const size = statSync(file).size;
    if (size > MAX_SKILL_BYTES) {
      warnings.push(
        `Skill ${fileShown} is ignored: it is ${size} bytes, more than ${MAX_SKILL_BYTES}. Keep SKILL.md short and move the detail into other files of its folder.`,
      );
      return undefined;
    }
    text = readFileSync(file, 'utf8');
  } catch (err) {
    // A folder without SKILL.md is no skill (a shared scripts/ folder, say): no warning.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      warnings.push(
        `Skill ${fileShown} is ignored: it cannot be read (${(err as Error).message}). Check its permissions.`,
      );
    return undefined;
  }
  const parsed = parseFrontMatter(text);
  if (!parsed.ok) {
    warnings.push(
      `Skill ${fileShown} is ignored: it ${parsed.problem}. Start it with ---, then name: and description: lines, then ---.`,
    );
    return undefined;
  }
  const name = (parsed.fields.name ?? '').trim();
  const description = (parsed.fields.description ?? '').trim();
  if (name === '') {
    warnings.push(
      `Skill ${fileShown} is ignored: its front matter has no name. Add a line name: ${entry}.`,
    );
    return undefined;
  }
  if (!NAME.test(name) || name.length > MAX_NAME) {
    warnings.push(
      `Skill ${fileShown} is ignored: its name "${name}" is not 1-64 lowercase letters, digits and single hyphens. Change the name: line (e.g. name: ${suggestName(name)}).`,
    );
    return undefined;
  }
  if (description === '') {
    warnings.push(
      `Skill ${fileShown} is ignored: its front matter has no description. Add a description: line saying what the skill does and when to use it.`,
    );
    return undefined;
  }
  if (name !== entry)
    warnings.push(
      `Skill ${fileShown} is named "${name}" but its folder is "${entry}": it is used as "${name}". Rename the folder to ${name} so other agents find it too.`,
    );
  let desc = description;
  if (desc.length > MAX_DESCRIPTION) {
    warnings.push(
      `Skill ${fileShown}: its description is ${desc.length} characters; only the first ${MAX_DESCRIPTION} are used. Shorten it.`,
    );
    desc = desc.slice(0, MAX_DESCRIPTION);
  }
  return { name, description: desc, source: root.source, dir, file, shown: fileShown };
}

/** A workspace skill by its path inside the workspace; the others by their full path. */
function shownPath(file: string, source: SkillSource, workspace: string): string {
  if (source !== 'workspace') return file;
  const rel = path.relative(workspace, file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel.split(path.sep).join('/');
}

/** Whether `p` is `root` or inside it (both real paths). */
export function inside(p: string, root: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function suggestName(name: string): string {
  const s = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_NAME);
  return s === '' ? 'my-skill' : s;
}

/** The content hash a workspace skill's trust is kept under. */
export function contentHash(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}
