import os from 'node:os';
import type { CommandRunner } from './exec.js';
import { createLinuxPlatform } from './linux.js';
import { createMacPlatform } from './macos.js';
import type { KillFn, SystemPlatform } from './types.js';
import { createWindowsPlatform } from './windows.js';

export interface PlatformDeps {
  runner: CommandRunner;
  kill?: KillFn;
  env?: NodeJS.ProcessEnv;
  homeDir?: string;
  /** Linux: where `/proc` is. */
  procRoot?: string;
  /** macOS: folders searched for `.app` bundles. */
  macAppRoots?: string[];
}

/**
 * Picks the implementation for a `process.platform` value, at run time. Returns undefined
 * for platforms without one (the tools then answer `unsupported`).
 */
export function selectPlatform(
  platform: NodeJS.Platform,
  deps: PlatformDeps,
): SystemPlatform | undefined {
  const kill: KillFn = deps.kill ?? ((pid, signal) => process.kill(pid, signal));
  const env = deps.env ?? process.env;
  const homeDir = deps.homeDir ?? os.homedir();
  switch (platform) {
    case 'linux':
      return createLinuxPlatform({
        runner: deps.runner,
        kill,
        env,
        homeDir,
        ...(deps.procRoot ? { procRoot: deps.procRoot } : {}),
      });
    case 'darwin':
      return createMacPlatform({
        runner: deps.runner,
        kill,
        homeDir,
        ...(deps.macAppRoots ? { appRoots: deps.macAppRoots } : {}),
      });
    case 'win32':
      return createWindowsPlatform({ runner: deps.runner });
    default:
      return undefined;
  }
}
