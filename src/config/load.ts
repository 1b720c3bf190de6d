import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { envOverrides } from './env.js';
import type { ConfigIssue, OriginLabels } from './issues.js';
import { toConfigIssues } from './issues.js';
import { parseJsonText } from './json.js';
import type { HomeSource } from './paths.js';
import { appPaths, expandTilde, resolveHome } from './paths.js';
import type { Config } from './schema.js';
import { configSchema } from './schema.js';

/** Command-line flags as the CLI parsed them; only the settings among them matter here. */
export interface ConfigFlags {
  workspace?: string | undefined;
  model?: string | undefined;
  baseUrl?: string | undefined;
  persona?: string | undefined;
  home?: string | undefined;
  /** Runtime only (start paused); not a setting, ignored by the loader. */
  paused?: boolean | undefined;
}

interface LoadConfigOptions {
  /** The app home. When omitted: `flags.home`, else `COGITO_HOME`, else the project folder. */
  home?: string;
  /** Defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
  flags?: ConfigFlags;
  /** Base for relative flag paths and the default workspace. Defaults to `process.cwd()`. */
  cwd?: string;
}

/** Where a setting's value came from; `name` is the variable or flag when there is one. */
interface ValueSource {
  from: 'default' | 'file' | 'env' | 'flag';
  name?: string;
}

/** A loaded configuration: the workspace is always resolved to an absolute folder. */
export type LoadedConfig = Config & { workspace: string };

type LoadConfigResult =
  | {
      ok: true;
      config: LoadedConfig;
      /** Per top-level setting, where its value came from. */
      sources: { home: HomeSource; fields: Record<keyof Config, ValueSource> };
      /** Whether config.json exists (false on first run: offer the setup wizard). */
      exists: boolean;
      home: string;
      file: string;
      /** What the file itself holds (validated), without env or flag overrides. */
      fileValues: Record<string, unknown>;
    }
  | { ok: false; errors: ConfigIssue[]; home: string; file: string };

const FLAG_FIELDS = [
  { flag: 'model', field: 'model', label: '--model' },
  { flag: 'baseUrl', field: 'baseURL', label: '--base-url' },
  { flag: 'persona', field: 'persona', label: '--persona' },
  { flag: 'workspace', field: 'workspace', label: '--workspace' },
] as const;

/**
 * Reads and validates `config.json`, then applies overrides: flags > env > file > defaults.
 * Synchronous on purpose: it runs once at start-up, before anything else needs the disk.
 * It never writes, creates or touches the file, whatever it finds; a missing file is fine.
 */
export function loadConfig(options: LoadConfigOptions = {}): LoadConfigResult {
  const env = options.env ?? process.env;
  const flags = options.flags ?? {};
  const cwd = options.cwd ?? process.cwd();
  const resolved = pickHome(options.home, flags.home, env, cwd);
  const { home } = resolved;
  const file = appPaths(home).config;
  const fail = (errors: ConfigIssue[]): LoadConfigResult => ({ ok: false, errors, home, file });

  const read = readConfigFile(file);
  if (!read.ok) return fail([read.issue]);
  const parsed = parseJsonText(read.text ?? '');
  if (!parsed.ok) return fail([parsed.issue]);
  if (!isPlainObject(parsed.value)) {
    return fail([
      {
        field: '(file)',
        problem: 'must hold one JSON object, e.g. { "model": "deepseek-chat" }',
        fix: 'Wrap the settings in { }, or delete the file to use the defaults.',
      },
    ]);
  }
  const fileValues = withoutNulls(parsed.value);

  const fileCheck = configSchema.safeParse(fileValues);
  if (!fileCheck.success) return fail(toConfigIssues(fileCheck.error.issues, fileValues));

  // Overrides go on top of the file's values and are validated together with them.
  const merged: Record<string, unknown> = { ...fileValues };
  const origins: OriginLabels = {};
  const fields: Partial<Record<string, ValueSource>> = {};
  for (const key of Object.keys(fileValues)) fields[key] = { from: 'file' };
  const fromEnv = envOverrides(env);
  for (const [field, value] of Object.entries(fromEnv.values)) {
    const name = fromEnv.names[field as keyof typeof fromEnv.names] ?? field;
    merged[field] = value;
    origins[field] = name;
    fields[field] = { from: 'env', name };
  }
  for (const { flag, field, label } of FLAG_FIELDS) {
    const given = flags[flag];
    if (!given?.trim()) continue;
    // A folder is taken exactly: "notes " (trailing space) is another folder than "notes".
    const value = field === 'workspace' ? given : given.trim();
    merged[field] = field === 'workspace' ? path.resolve(cwd, expandTilde(value)) : value;
    origins[field] = label;
    fields[field] = { from: 'flag', name: label };
  }

  // The folder is where Cogito starts (or --workspace): a "workspace" left in the file by an
  // earlier version is ignored (createApp removes it and says so once, legacyWorkspace.ts).
  if (origins['workspace'] === undefined) {
    delete merged['workspace'];
    delete fields['workspace'];
  }

  const check = configSchema.safeParse(merged);
  if (!check.success) return fail(toConfigIssues(check.error.issues, merged, origins));
  const config = check.data;

  const workspace = resolveWorkspace(config.workspace, cwd);
  const wsIssue = checkFolder(workspace, origins.workspace);
  if (wsIssue) return fail([wsIssue]);
  if (config.modelPath !== undefined) {
    config.modelPath = path.resolve(home, expandTilde(config.modelPath));
  }

  const allFields = Object.fromEntries(
    Object.keys(configSchema.shape).map((k) => [k, fields[k] ?? { from: 'default' }]),
  ) as Record<keyof Config, ValueSource>;
  return {
    ok: true,
    config: { ...config, workspace },
    sources: { home: resolved.source, fields: allFields },
    exists: read.text !== undefined,
    home,
    file,
    fileValues,
  };
}

/** An explicit `home` wins; its source is still reported as the flag/env it matches. */
function pickHome(
  given: string | undefined,
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  cwd: string,
): { home: string; source: HomeSource } {
  const usual = resolveHome({ flag, env, cwd });
  if (!given) return usual;
  const home = path.resolve(cwd, expandTilde(given));
  return { home, source: home === usual.home ? usual.source : 'flag' };
}

/** The file's text, `undefined` text when it does not exist, or an issue when unreadable. */
function readConfigFile(
  file: string,
): { ok: true; text: string | undefined } | { ok: false; issue: ConfigIssue } {
  try {
    return { ok: true, text: readFileSync(file, 'utf8') };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: true, text: undefined };
    const fix =
      code === 'EISDIR'
        ? 'A folder has the name config.json: rename or remove it.'
        : code === 'EACCES' || code === 'EPERM'
          ? 'Give your user read permission on the file (chmod 600 config.json).'
          : 'Check that the file is readable.';
    return {
      ok: false,
      issue: { field: '(file)', problem: `cannot be read (${code ?? String(err)})`, fix },
    };
  }
}

/** The folder Cogito was started in, or the one `--workspace` names (already absolute). */
function resolveWorkspace(value: string | undefined, cwd: string): string {
  return value === undefined ? path.resolve(cwd) : value;
}

function checkFolder(folder: string, origin: string | undefined): ConfigIssue | undefined {
  const from = origin === undefined ? '' : ` (from ${origin})`;
  try {
    if (statSync(folder).isDirectory()) return undefined;
    return {
      field: 'workspace',
      problem: `${folder} is a file, not a folder${from}`,
      fix: 'Point --workspace at a folder, or start cogito in the folder to work in.',
      ...(origin === undefined ? {} : { origin }),
    };
  } catch {
    return {
      field: 'workspace',
      problem: `the folder ${folder} does not exist${from}`,
      fix: `Create it (mkdir -p ${JSON.stringify(folder)}), or point --workspace at an existing folder.`,
      ...(origin === undefined ? {} : { origin }),
    };
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `null` in the file means "use the default", the only way JSON can say "unset". */
function withoutNulls(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v === null) continue;
    out[k] = isPlainObject(v) ? withoutNulls(v) : v;
  }
  return out;
}
