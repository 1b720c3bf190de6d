/**
 * The instruction files of a run, put together: the workspace (imports resolved by its own
 * checks), the app home as the scope of the user's own file (its settings, data and lock
 * fenced off, as in the workspace), the names and budget from the config, and the session's
 * change journal, so a file Cogito itself changed is held back until the user has seen it.
 */
import path from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { appPaths, LOCK_FILE } from '../config/paths.js';
import { InstructionSet } from '../instructions/instructionSet.js';
import type { Journal } from '../journal/journal.js';
import { Workspace } from '../tools/workspace.js';

/** Builds the run's instruction set; the home need not exist (then there is no user file). */
export async function openInstructions(deps: {
  config: LoadedConfig;
  home: string;
  workspace: Workspace;
  journal(): Journal;
  /** API keys: removed from the files' text (a key pasted into AGENTS.md goes no further). */
  secrets: readonly (string | undefined)[];
}): Promise<InstructionSet> {
  const { config, home } = deps;
  let homeScope: Workspace | undefined;
  try {
    homeScope = await Workspace.open(home);
    const own = appPaths(home);
    await homeScope.fence(own.config, "Cogito's settings file (it holds the API key)");
    await homeScope.fence(own.data, "Cogito's own data (history, archives, logs)");
    await homeScope.fence(path.join(home, LOCK_FILE), "Cogito's lock file");
  } catch {
    homeScope = undefined; // no home folder yet: no file of the user's there either
  }
  return new InstructionSet({
    workspace: deps.workspace,
    ...(homeScope ? { home: homeScope } : {}),
    names: config.instructions.files,
    maxBytes: config.instructions.maxBytes,
    changedByCogito: () => deps.journal().changedPaths(),
    secrets: deps.secrets,
  });
}
