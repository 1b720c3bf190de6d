/**
 * The one write the wizard makes, at its very end: the answers go into config.json
 * (atomically, mode 0600, through `saveConfig`). Other settings already in the file are
 * kept as they are; an existing file that is not valid JSON is left alone and reported.
 */
import { readFile } from 'node:fs/promises';
import { parseJsonText } from '../config/json.js';
import { appPaths } from '../config/paths.js';
import { saveConfig, type SaveConfigResult } from '../config/save.js';
import { toConfigChange } from './answers.js';
import type { Answers } from './wizard.js';

/**
 * Merges the answers into `<home>/config.json` and writes it. `updateConfigFile` would do
 * for setting values, but it cannot delete one, and a stale key must go (see
 * `toConfigChange`), so the merge is done here and the write left to `saveConfig`.
 */
export async function saveSetup(home: string, answers: Answers): Promise<SaveConfigResult> {
  const { set, remove } = toConfigChange(answers);
  const current = await readCurrent(appPaths(home).config);
  if (!current.ok) return current;
  const next: Record<string, unknown> = { ...current.value, ...set };
  for (const key of remove) delete next[key];
  return saveConfig(home, next);
}

async function readCurrent(
  file: string,
): Promise<
  { ok: true; value: Record<string, unknown> } | Extract<SaveConfigResult, { ok: false }>
> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: true, value: {} };
    return {
      ok: false,
      errors: [
        {
          field: '(file)',
          problem: `cannot be read (${code ?? String(err)})`,
          fix: 'Give your user read and write permission on config.json, or choose another home with --home.',
        },
      ],
    };
  }
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, errors: [parsed.issue] };
  const v = parsed.value;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    return {
      ok: false,
      errors: [{ field: '(file)', problem: 'must hold one JSON object', fix: 'Wrap it in { }.' }],
    };
  }
  return { ok: true, value: v as Record<string, unknown> };
}
