import { mkdir, readFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { atomicWriteFileSync, realFs } from '../core/fsPort.js';
import type { ConfigIssue } from './issues.js';
import { toConfigIssues } from './issues.js';
import { parseJsonText } from './json.js';
import { appPaths } from './paths.js';
import type { Config, ConfigInput } from './schema.js';
import { configSchema, defaultConfig } from './schema.js';

/** Owner read/write only: the file holds the API key. */
const CONFIG_FILE_MODE = 0o600;

export type SaveConfigResult = { ok: true; file: string } | { ok: false; errors: ConfigIssue[] };

/**
 * Validates `config` and writes it to `<home>/config.json` atomically (temp file, fsync,
 * rename, fsync of the folder: a crash leaves the old file or the new one, never half of
 * each), mode 0600. Callers never write over a file that does not parse (they refuse).
 * Values equal to their defaults are left out, so the file stays short and a later change
 * of a default reaches users who never chose that value. Never writes an invalid config.
 */
export async function saveConfig(
  home: string,
  config: Config | ConfigInput,
): Promise<SaveConfigResult> {
  const file = appPaths(home).config;
  const check = configSchema.safeParse(config);
  if (!check.success) return { ok: false, errors: toConfigIssues(check.error.issues, config) };
  const body = withoutDefaults(check.data, defaultConfig()) ?? {};
  try {
    await mkdir(home, { recursive: true, mode: 0o700 });
    // The one atomic writer of every state file (temp, fsync, rename, fsync of the folder).
    atomicWriteFileSync(realFs, file, `${JSON.stringify(body, null, 2)}\n`, CONFIG_FILE_MODE);
    return { ok: true, file };
  } catch (err) {
    return { ok: false, errors: [writeIssue(err)] };
  }
}

/**
 * Changes some settings in the file and keeps the rest as the user wrote them: meant for
 * the setup wizard and commands like `/model`, so that env or flag overrides never leak
 * into the file. An existing file that is invalid is left alone and its issues returned.
 */
export async function updateConfigFile(
  home: string,
  patch: ConfigInput,
): Promise<SaveConfigResult> {
  const file = appPaths(home).config;
  let current: Record<string, unknown> = {};
  try {
    const parsed = parseJsonText(await readFile(file, 'utf8'));
    if (!parsed.ok) return { ok: false, errors: [parsed.issue] };
    if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
      return {
        ok: false,
        errors: [{ field: '(file)', problem: 'must hold one JSON object', fix: 'Wrap it in { }.' }],
      };
    }
    current = parsed.value as Record<string, unknown>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      return { ok: false, errors: [writeIssue(err)] };
  }
  const existing = configSchema.safeParse(current);
  if (!existing.success) {
    return { ok: false, errors: toConfigIssues(existing.error.issues, current) };
  }
  return saveConfig(home, deepMerge(current, patch as Record<string, unknown>));
}

function writeIssue(err: unknown): ConfigIssue {
  const code = (err as NodeJS.ErrnoException).code ?? String(err);
  return {
    field: '(file)',
    problem: `could not be written (${code})`,
    fix: 'Check that the home folder exists and your user may write to it, or choose another with --home.',
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `value` minus what equals `defaults`; undefined when nothing remains. */
function withoutDefaults(value: unknown, defaults: unknown): unknown {
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue;
      const kept = withoutDefaults(v, isObject(defaults) ? defaults[k] : undefined);
      if (kept !== undefined) out[k] = kept;
    }
    return Object.keys(out).length === 0 && isObject(defaults) ? undefined : out;
  }
  return isDeepStrictEqual(value, defaults) ? undefined : value;
}

function deepMerge(
  base: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    const b = out[k];
    out[k] = isObject(b) && isObject(v) ? deepMerge(b, v) : v;
  }
  return out;
}
