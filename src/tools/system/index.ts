import type { Tool } from '../types.js';
import { ToolFailure } from '../web/errors.js';
import { createListAppsTool, createOpenAppTool } from './apps.js';
import { createCommandRunner } from './exec.js';
import type { CommandRunner, ExecaLike } from './exec.js';
import { selectPlatform } from './platform.js';
import type { PlatformDeps } from './platform.js';
import { createCloseAppTool, createListProcessesTool } from './processes.js';
import type { KillFn, SystemPlatform } from './types.js';

/** Effects the system tools use; each defaults to the real one. */
export interface SystemToolsDeps {
  /** A `process.platform` value, or a ready implementation (tests). Default: `process.platform`. */
  platform?: NodeJS.Platform | SystemPlatform;
  /** Runs external commands; defaults to one over `execa` (or over `deps.execa`). */
  runner?: CommandRunner;
  execa?: ExecaLike;
  kill?: KillFn;
  env?: NodeJS.ProcessEnv;
  homeDir?: string;
  procRoot?: string;
  macAppRoots?: string[];
}

/** Builds `listApps`, `openApp`, `closeApp` and `listProcesses` for the running OS. */
export function createSystemTools(deps: SystemToolsDeps = {}): Tool[] {
  const chosen = deps.platform ?? process.platform;
  let platform: SystemPlatform | undefined;
  if (typeof chosen === 'string') {
    const platformDeps: PlatformDeps = {
      runner: deps.runner ?? createCommandRunner(deps.execa),
      ...(deps.kill ? { kill: deps.kill } : {}),
      ...(deps.env ? { env: deps.env } : {}),
      ...(deps.homeDir ? { homeDir: deps.homeDir } : {}),
      ...(deps.procRoot ? { procRoot: deps.procRoot } : {}),
      ...(deps.macAppRoots ? { macAppRoots: deps.macAppRoots } : {}),
    };
    platform = selectPlatform(chosen, platformDeps);
  } else {
    platform = chosen;
  }
  const getPlatform = (): SystemPlatform => {
    if (platform === undefined) {
      throw new ToolFailure(
        'unsupported',
        `The system tools support Linux, macOS and Windows, not ${String(chosen)}.`,
      );
    }
    return platform;
  };
  return [
    createListAppsTool(getPlatform),
    createOpenAppTool(getPlatform),
    createCloseAppTool(getPlatform),
    createListProcessesTool(getPlatform),
  ];
}
