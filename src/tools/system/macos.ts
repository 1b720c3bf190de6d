import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ToolFailure } from '../web/errors.js';
import type { CommandRunner } from './exec.js';
import { terminateProcesses } from './kill.js';
import type { AppInfo, KillFn, ProcessInfo, SystemPlatform } from './types.js';

interface MacDeps {
  runner: CommandRunner;
  kill: KillFn;
  homeDir: string;
  /** Folders searched for `.app` bundles (fixture folders in tests). */
  appRoots?: string[];
}

/** Where macOS keeps applications; Utilities is one level down in both system folders. */
function macAppRoots(homeDir: string): string[] {
  return [
    '/Applications',
    '/Applications/Utilities',
    '/System/Applications',
    '/System/Applications/Utilities',
    path.join(homeDir, 'Applications'),
  ];
}

/**
 * Turns a directory listing (one entry per line, as `ls` prints it) into the apps it holds:
 * every `*.app` bundle, named without the extension. The same parser serves live
 * `readdir` results joined with newlines.
 */
export function appsFromListing(root: string, listing: string): AppInfo[] {
  const apps: AppInfo[] = [];
  for (const raw of listing.split(/\r?\n/)) {
    const entry = raw.trim().replace(/\/$/, '');
    if (!entry.toLowerCase().endsWith('.app') || entry.startsWith('.')) continue;
    const name = entry.slice(0, -'.app'.length);
    if (name === '') continue;
    const bundle = path.posix.join(root, entry);
    apps.push({ name, aliases: [], source: bundle, target: bundle, processNames: [name] });
  }
  return apps;
}

/**
 * Parses `ps -axo pid=,rss=,comm=`: pid, resident KiB, then the executable path, which may
 * contain spaces and so comes last. (BSD `ps -e` means "show the environment", hence `-ax`.)
 */
export function parsePsOutput(output: string): ProcessInfo[] {
  const processes: ProcessInfo[] = [];
  for (const line of output.split(/\r?\n/)) {
    const match = /^\s*(\d+)\s+(\d+)\s+(.+?)\s*$/.exec(line);
    if (!match) continue; // header or blank
    const command = match[3]!;
    processes.push({
      pid: Number(match[1]),
      memoryKb: Number(match[2]),
      name: path.posix.basename(command),
      command,
    });
  }
  return processes;
}

/** macOS: `.app` bundles, `open -a`, `ps`, and SIGTERM. */
export function createMacPlatform(deps: MacDeps): SystemPlatform {
  const roots = deps.appRoots ?? macAppRoots(deps.homeDir);
  return {
    label: 'macOS',
    async listApps() {
      const seen = new Set<string>();
      const apps: AppInfo[] = [];
      for (const root of roots) {
        const entries = await readdir(root).catch(() => [] as string[]);
        for (const app of appsFromListing(root, entries.join('\n'))) {
          if (seen.has(app.name.toLowerCase())) continue;
          seen.add(app.name.toLowerCase());
          apps.push(app);
        }
      }
      return apps;
    },
    async openApp(app, signal) {
      if (!app.target) throw new ToolFailure('not_found', `No bundle is known for ${app.name}.`);
      // `open` hands the bundle to Launch Services and exits at once, so it is run, not launched.
      const result = await deps.runner.run('open', ['-a', app.target], {
        signal,
        timeoutMs: 15_000,
      });
      if (result.exitCode !== 0) {
        throw new ToolFailure(
          'io',
          `open -a failed for ${app.name}: ${result.stderr.trim() || `exit code ${result.exitCode}`}.`,
        );
      }
    },
    async listProcesses(signal) {
      const result = await deps.runner.run('ps', ['-axo', 'pid=,rss=,comm='], {
        signal,
        timeoutMs: 15_000,
      });
      if (result.exitCode !== 0)
        throw new ToolFailure(
          'io',
          `ps failed: ${result.stderr.trim() || `exit code ${result.exitCode}`}.`,
        );
      return parsePsOutput(result.stdout);
    },
    closeProcesses: async (processes) => terminateProcesses(processes, deps.kill),
  };
}
