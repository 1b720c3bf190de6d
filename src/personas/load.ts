import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseFrontMatter } from '../core/frontMatter.js';

/** A character Cogito can play: its header and the prompt text that sets its voice. */
export interface Persona {
  /** Stable identifier, lower case (`assistant`, `detective`, `custom`). */
  id: string;
  name: string;
  /** Chinese name; the English name when the file gives none. */
  nameZh: string;
  /** One line, shown in pickers. */
  description: string;
  descriptionZh?: string;
  /** The Markdown body: goes into the system prompt. */
  prompt: string;
  /** Where it came from: shipped with Cogito, or added by the user. */
  source: 'builtin' | 'user';
  file: string;
}

export interface LoadPersonasOptions {
  /** Cogito's own `personas/` folder. */
  builtinDir: string;
  /** The app home: its `personas/` folder and `persona.md` are the user's additions. */
  home?: string;
}

const ID_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;

/**
 * Loads the built-in personas, then the user's (`<home>/personas/*.md`, then
 * `<home>/persona.md`); a later file with the same id replaces the earlier one. A broken
 * file becomes a warning naming the file and what is wrong; the others still load.
 * Built-ins come first in the result, in file-name order.
 */
export function loadPersonas(options: LoadPersonasOptions): {
  personas: Persona[];
  warnings: string[];
} {
  const warnings: string[] = [];
  const byId = new Map<string, Persona>();
  const add = (file: string, source: Persona['source'], defaultId?: string): void => {
    const result = readPersona(file, source, defaultId);
    if (typeof result === 'string') warnings.push(result);
    else byId.set(result.id, result);
  };

  for (const file of markdownFiles(options.builtinDir, warnings)) add(file, 'builtin');
  if (options.home !== undefined) {
    const userDir = path.join(options.home, 'personas');
    // When the home is the project folder, its personas/ is the built-in folder itself.
    if (path.resolve(userDir) !== path.resolve(options.builtinDir)) {
      for (const file of markdownFiles(userDir, warnings, true)) add(file, 'user');
    }
    const single = path.join(options.home, 'persona.md');
    if (existsSync(single)) add(single, 'user', 'custom');
  }
  return { personas: [...byId.values()], warnings };
}

/**
 * Finds a persona by id, English name or Chinese name, ignoring case and surrounding
 * spaces (`/persona Detective`, `/persona 侦探`).
 */
export function findPersona(list: readonly Persona[], nameOrId: string): Persona | undefined {
  const wanted = nameOrId.trim().toLowerCase();
  if (wanted === '') return undefined;
  return (
    list.find((p) => p.id === wanted) ??
    list.find((p) => p.name.toLowerCase() === wanted || p.nameZh.toLowerCase() === wanted)
  );
}

function readPersona(
  file: string,
  source: Persona['source'],
  defaultId?: string,
): Persona | string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return `Persona ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)}); skipped.`;
  }
  const parsed = parseFrontMatter(text);
  if (!parsed.ok) return `Persona ${file} ${parsed.problem}; skipped.`;
  const f = parsed.fields;
  const id = (f.id ?? defaultId ?? '').trim().toLowerCase();
  const missing = [...(id ? [] : ['id']), ...['name', 'description'].filter((k) => !f[k]?.trim())];
  if (missing.length > 0) {
    return `Persona ${file} is missing ${missing.join(', ')} in its front matter; skipped. Add e.g. "id: my-helper", "name: My Helper", "description: one line" between the --- lines.`;
  }
  if (!ID_PATTERN.test(id)) {
    return `Persona ${file} has id "${id}": use lower-case letters, digits, - or _; skipped.`;
  }
  if (parsed.body === '') {
    return `Persona ${file} has no text after its front matter: describe its voice and habits there; skipped.`;
  }
  const name = (f.name ?? '').trim();
  const descriptionZh = f.description_zh?.trim();
  return {
    id,
    name,
    nameZh: f.name_zh?.trim() || name,
    description: (f.description ?? '').trim(),
    ...(descriptionZh ? { descriptionZh } : {}),
    prompt: parsed.body,
    source,
    file,
  };
}

function markdownFiles(dir: string, warnings: string[], optional = false): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => n.toLowerCase().endsWith('.md') && n.toLowerCase() !== 'readme.md')
      .sort()
      .map((n) => path.join(dir, n));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (!(optional && code === 'ENOENT')) {
      warnings.push(`Persona folder ${dir} cannot be read (${code ?? String(err)}).`);
    }
    return [];
  }
}
