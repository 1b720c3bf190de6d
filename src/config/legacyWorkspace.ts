/**
 * Cogito works in the folder it is started in (or `--workspace DIR`). Earlier versions let
 * the setup wizard store a `"workspace"` in config.json, which pinned every run, from any
 * folder, to the first folder ever chosen. Such a setting is ignored by the loader; this
 * takes it out of the file once, and says so once.
 */
import { readFile } from 'node:fs/promises';
import { parseJsonText } from './json.js';
import { appPaths } from './paths.js';
import { saveConfig } from './save.js';

/**
 * When config.json (`fileValues`, as loaded) still holds `"workspace"`: removes it from the
 * file (atomically, the other settings kept) and returns the one-time notice; otherwise
 * `undefined`. A file that cannot be rewritten keeps the key, and the notice says so.
 */
export async function dropLegacyWorkspace(
  home: string,
  fileValues: Record<string, unknown>,
  workingIn: string,
): Promise<string | undefined> {
  const old = fileValues['workspace'];
  if (typeof old !== 'string') return undefined;
  const head =
    `config.json set "workspace": "${old}"; Cogito now works in the folder it is started in ` +
    `(this run: ${workingIn}). To work in ${old}, start cogito there or use --workspace ${old}.`;
  const removed = await removeKey(home);
  return removed
    ? `${head} The setting was removed from config.json.`
    : `${head} The setting is ignored; remove it from config.json to stop this notice.`;
}

/** Rewrites config.json without `workspace`, re-reading it so a concurrent change is kept. */
async function removeKey(home: string): Promise<boolean> {
  try {
    const parsed = parseJsonText(await readFile(appPaths(home).config, 'utf8'));
    if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return false;
    const next = { ...(parsed.value as Record<string, unknown>) };
    if (!('workspace' in next)) return true;
    delete next['workspace'];
    return (await saveConfig(home, next)).ok;
  } catch {
    return false;
  }
}
