/**
 * The user's editor for a file (`/memory edit`): `$VISUAL`, then `$EDITOR` (either may carry
 * arguments, e.g. `code --wait`), else nano, else vi, whichever is first on the PATH. It runs
 * synchronously with the terminal handed to it; the screen lends the terminal (`lend`, from
 * components/terminal) and draws itself again after.
 */
import { spawnSync, type SpawnSyncOptions, type SpawnSyncReturns } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** The editor to run: the program, its own arguments, and the variable it came from. */
export interface EditorCommand {
  command: string;
  args: string[];
  /** `VISUAL`, `EDITOR`, or `fallback` (nano or vi found on the PATH). */
  from: 'VISUAL' | 'EDITOR' | 'fallback';
}

/** How handing a file to the editor went. */
export type EditorOutcome =
  { ok: true; editor: string; code: number | null } | { ok: false; problem: string };

/** The fix named whenever no editor runs. */
const FIX = 'set $EDITOR (e.g. export EDITOR=nano) and try again';

/** Whether `name` is an executable on `env.PATH` (or, with a slash, at that path). */
export function onPath(env: NodeJS.ProcessEnv): (name: string) => boolean {
  const executable = (file: string): boolean => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  return (name) => {
    if (name.includes('/')) return executable(name);
    const dirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
    return dirs.some((dir) => executable(path.join(dir, name)));
  };
}

/** The editor `env` asks for, else nano or vi when `found` on the PATH; undefined: none. */
export function chooseEditor(
  env: NodeJS.ProcessEnv,
  found: (name: string) => boolean = onPath(env),
): EditorCommand | undefined {
  for (const from of ['VISUAL', 'EDITOR'] as const) {
    const words = (env[from] ?? '').trim().split(/\s+/).filter(Boolean);
    if (words.length > 0) return { command: words[0]!, args: words.slice(1), from };
  }
  const fallback = ['nano', 'vi'].find((name) => found(name));
  return fallback === undefined ? undefined : { command: fallback, args: [], from: 'fallback' };
}

export interface EditFileDeps {
  env: NodeJS.ProcessEnv;
  /** Runs `meanwhile` with the terminal handed over (the screen steps aside meanwhile). */
  lend<T>(meanwhile: () => T): T;
  /** Default: node's spawnSync (tests pass a fake). */
  spawn?: (
    command: string,
    args: readonly string[],
    opts: SpawnSyncOptions,
  ) => Pick<SpawnSyncReturns<Buffer>, 'status' | 'error'>;
  /** Default: a look on env.PATH. */
  found?: (name: string) => boolean;
}

/** Opens `file` in the user's editor and returns once it exits; a refusal names the fix. */
export function editFile(file: string, deps: EditFileDeps): EditorOutcome {
  const editor = chooseEditor(deps.env, deps.found ?? onPath(deps.env));
  if (editor === undefined)
    return {
      ok: false,
      problem: `No editor found ($VISUAL and $EDITOR are unset, and neither nano nor vi is on the PATH): ${FIX}.`,
    };
  const spawn = deps.spawn ?? spawnSync;
  const run = deps.lend(() =>
    spawn(editor.command, [...editor.args, file], { stdio: 'inherit', env: deps.env }),
  );
  const name = [editor.command, ...editor.args].join(' ');
  if (run.error !== undefined) {
    const where = editor.from === 'fallback' ? '' : ` (from $${editor.from})`;
    const why = (run.error as NodeJS.ErrnoException).code ?? run.error.message;
    return {
      ok: false,
      problem: `The editor "${name}"${where} could not be started (${why}): ${FIX}.`,
    };
  }
  return { ok: true, editor: name, code: run.status };
}
