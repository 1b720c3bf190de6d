/**
 * The skills catalogue in the system prompt: names and descriptions only, capped in count and
 * bytes. It is made once at start from a sorted list, so the prompt's bytes are the same on
 * every request (the prompt cache keeps hitting). Skills that do not fit are named in a last
 * line (skill("name") still loads them) and in a start-up warning: nothing is cut silently.
 */
import type { Skill } from './discover.js';

/** At most this many skills are described. */
export const CATALOGUE_MAX_SKILLS = 40;
/** At most this many bytes (UTF-8) of descriptions and names. */
export const CATALOGUE_MAX_BYTES = 8000;
/** One skill's description in the catalogue is cut here (its SKILL.md keeps all of it). */
const ENTRY_MAX_CHARS = 300;

export interface Catalogue {
  /** The prompt section, or '' when there are no skills. */
  text: string;
  /** The skills described in it. */
  listed: readonly string[];
  /** The skills left out (by count or bytes). */
  cut: readonly string[];
}

export function buildCatalogue(
  skills: readonly Skill[],
  limits: { maxSkills?: number; maxBytes?: number } = {},
): Catalogue {
  if (skills.length === 0) return { text: '', listed: [], cut: [] };
  const maxSkills = limits.maxSkills ?? CATALOGUE_MAX_SKILLS;
  const maxBytes = limits.maxBytes ?? CATALOGUE_MAX_BYTES;
  const lines: string[] = [];
  const listed: string[] = [];
  const cut: string[] = [];
  let bytes = 0;
  for (const skill of skills) {
    const line = `- ${skill.name}: ${oneLine(skill.description)}`;
    const size = Buffer.byteLength(line, 'utf8') + 1;
    if (listed.length >= maxSkills || bytes + size > maxBytes) {
      cut.push(skill.name);
      continue;
    }
    bytes += size;
    lines.push(line);
    listed.push(skill.name);
  }
  const more =
    cut.length === 0
      ? ''
      : `\nNot described here (the catalogue is full), still loadable by name: ${cut.join(', ')}.`;
  const text = `# Skills
Skills are instructions for particular tasks, kept in folders. When a task matches a skill's description, first load it with skill("name") and follow what it says. Read a file of the skill with skill("name", "path/in/the/skill").
${lines.join('\n')}${more}`;
  return { text, listed, cut };
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > ENTRY_MAX_CHARS ? `${flat.slice(0, ENTRY_MAX_CHARS - 1)}…` : flat;
}
