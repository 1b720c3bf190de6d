/**
 * A skill's own files: listed when the skill is loaded, and read one at a time through
 * skill("name", "path"). A path is taken only when it stays inside the skill's folder: no
 * absolute path, no `..`, and its real path (symlinks followed) still inside the folder's.
 */
import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { inside } from './discover.js';

const MAX_LISTED = 60;
const MAX_DEPTH = 3;
/** A skill file larger than this is not returned whole (the read tool can page it). */
export const MAX_FILE_BYTES = 256 * 1024;

/** The folder's files other than SKILL.md, relative and with `/`, at most {@link MAX_LISTED}. */
export function listSkillFiles(dir: string): { files: string[]; more: number } {
  const files: string[] = [];
  let more = 0;
  const walk = (rel: string, depth: number): void => {
    let entries: string[];
    try {
      entries = readdirSync(path.join(dir, rel)).sort();
    } catch {
      return;
    }
    for (const name of entries) {
      if (name.startsWith('.')) continue;
      const r = rel === '' ? name : `${rel}/${name}`;
      if (r === 'SKILL.md') continue;
      let st;
      try {
        st = lstatSync(path.join(dir, r));
      } catch {
        continue;
      }
      // A link is listed only when it stays inside the folder (readSkillFile checks again).
      if (st.isSymbolicLink() && !linksInside(dir, r)) continue;
      if (st.isDirectory()) {
        if (depth < MAX_DEPTH) walk(r, depth + 1);
      } else if (files.length < MAX_LISTED) files.push(r);
      else more += 1;
    }
  };
  walk('', 1);
  return { files, more };
}

function linksInside(dir: string, rel: string): boolean {
  try {
    return inside(realpathSync(path.join(dir, rel)), dir);
  } catch {
    return false;
  }
}

export type SkillFileRead =
  { ok: true; text: string; rel: string } | { ok: false; problem: string };

/** Reads `rel` inside the skill folder `dir` (a real path); refuses any way out of it. */
export function readSkillFile(dir: string, rel: string): SkillFileRead {
  const cleaned = rel.trim().replace(/\\/g, '/');
  if (cleaned === '' || cleaned.includes('\0'))
    return {
      ok: false,
      problem: 'the path is empty. Give a file of the skill, e.g. "reference.md"',
    };
  if (path.isAbsolute(cleaned) || /^[a-zA-Z]:/.test(cleaned) || cleaned.split('/').includes('..'))
    return {
      ok: false,
      problem: `the path "${rel}" leads out of the skill's folder (absolute or with ..). Give a path inside the skill, as listed when it was loaded`,
    };
  const full = path.join(dir, cleaned);
  let real: string;
  try {
    real = realpathSync(full);
  } catch {
    return {
      ok: false,
      problem: `the skill has no file "${cleaned}". Load the skill to see its files`,
    };
  }
  if (!inside(real, dir) || real === dir)
    return {
      ok: false,
      problem: `"${cleaned}" is a link that leads out of the skill's folder; it is not read`,
    };
  const st = statSync(real);
  if (st.isDirectory())
    return {
      ok: false,
      problem: `"${cleaned}" is a folder. Give one of the files listed when the skill was loaded`,
    };
  if (st.size > MAX_FILE_BYTES)
    return {
      ok: false,
      problem: `"${cleaned}" is ${st.size} bytes, more than ${MAX_FILE_BYTES}; it is not read whole`,
    };
  const buf = readFileSync(real);
  if (buf.includes(0))
    return {
      ok: false,
      problem: `"${cleaned}" is a binary file; only text files of a skill are read`,
    };
  return { ok: true, text: buf.toString('utf8'), rel: cleaned };
}
