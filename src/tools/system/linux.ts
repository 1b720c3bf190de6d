import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ToolFailure } from '../web/errors.js';
import { execToArgv, parseDesktopEntry } from './desktopEntry.js';
import type { CommandRunner } from './exec.js';
import { terminateProcesses } from './kill.js';
import type { AppInfo, KillFn, ProcessInfo, SystemPlatform } from './types.js';

interface LinuxDeps {
  runner: CommandRunner;
  kill: KillFn;
  env: NodeJS.ProcessEnv;
  homeDir: string;
  /** Where `/proc` is (a fixture folder in tests). */
  procRoot?: string;
}

/** Launchers and interpreters: their name says nothing about which app a process is. */
const GENERIC_PROGRAMS =
  /^(env|sh|bash|dash|zsh|fish|python[\d.]*|perl|ruby|node|java|mono|dotnet|wine|flatpak|snap|gtk-launch|gio|xdg-open|exo-open|kioclient\d*|sudo|pkexec|electron\d*|appimagelauncher)$/i;

/** Locales whose `Name[…]` is kept as an alias: Chinese always, plus the user's own. */
function aliasLocales(env: NodeJS.ProcessEnv): string[] {
  const locales = ['zh_CN', 'zh_TW', 'zh_HK', 'zh'];
  const current = (env.LC_ALL || env.LC_MESSAGES || env.LANG || '').split(/[.@]/)[0] ?? '';
  if (current && current !== 'C' && current !== 'POSIX')
    locales.push(current, current.split('_')[0] ?? current);
  return [...new Set(locales)];
}

/** The XDG data dirs in precedence order: `$XDG_DATA_HOME`, then each of `$XDG_DATA_DIRS`. */
export function xdgDataDirs(env: NodeJS.ProcessEnv, homeDir: string): string[] {
  const home = env.XDG_DATA_HOME?.trim() || path.join(homeDir, '.local', 'share');
  const system = (env.XDG_DATA_DIRS?.trim() || '/usr/local/share:/usr/share')
    .split(':')
    .filter(Boolean);
  return [...new Set([home, ...system])];
}

/**
 * Reads the applications of the XDG data dirs. A desktop file ID (its path below
 * `applications/`, `/` → `-`) seen first wins, so a user's copy, including a `Hidden=true`
 * one that deletes the app, overrides the system's. NoDisplay and Hidden entries and
 * anything not `Type=Application` with a Name and Exec are left out.
 */
async function listDesktopApps(env: NodeJS.ProcessEnv, homeDir: string): Promise<AppInfo[]> {
  const seen = new Set<string>();
  const apps: AppInfo[] = [];
  const locales = aliasLocales(env);
  for (const dataDir of xdgDataDirs(env, homeDir)) {
    const root = path.join(dataDir, 'applications');
    for (const file of await findDesktopFiles(root)) {
      const id = path.relative(root, file).split(path.sep).join('-');
      if (seen.has(id)) continue;
      seen.add(id);
      const app = await readDesktopApp(file, id, locales);
      if (app !== undefined) apps.push(app);
    }
  }
  return apps;
}

async function readDesktopApp(
  file: string,
  id: string,
  locales: readonly string[],
): Promise<AppInfo | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  const entry = parseDesktopEntry(text);
  if (entry.type !== 'Application' || entry.noDisplay || entry.hidden || !entry.name || !entry.exec)
    return undefined;
  const aliases = locales
    .map((locale) => entry.localizedNames[locale])
    .filter((name): name is string => name !== undefined && name !== entry.name);
  return {
    name: entry.name,
    aliases: [...new Set(aliases)],
    source: file,
    target: entry.exec,
    processNames: processNamesFor(entry.exec, id),
    ...(entry.terminal ? { terminal: true } : {}),
  };
}

function processNamesFor(exec: string, id: string): string[] {
  const names: string[] = [];
  try {
    const program = execToArgv(exec)[0];
    if (program !== undefined) {
      const base = path.basename(program);
      if (!GENERIC_PROGRAMS.test(base)) names.push(base);
    }
  } catch {
    // A broken Exec line: openApp reports it; closeApp can still use the id.
  }
  const stem = id.replace(/\.desktop$/, '');
  if (!stem.includes('.')) names.push(stem);
  return [...new Set(names)];
}

async function findDesktopFiles(root: string, depth = 0): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(root, entry.name);
    if (entry.isDirectory() && depth < 3) files.push(...(await findDesktopFiles(full, depth + 1)));
    else if (entry.name.endsWith('.desktop') && (entry.isFile() || entry.isSymbolicLink()))
      files.push(full);
  }
  return files;
}

/**
 * Reads processes straight from `/proc`: `comm` (cut at 15 characters by the kernel, so the
 * basename of `cmdline`'s first word is preferred when it extends it), `cmdline`, and
 * `VmRSS` from `status`. Kernel threads (empty cmdline) are left out.
 */
export async function listProcProcesses(
  procRoot: string,
  signal?: AbortSignal,
): Promise<ProcessInfo[]> {
  const pids = (await readdir(procRoot)).filter((entry) => /^\d+$/.test(entry));
  const processes: ProcessInfo[] = [];
  const batch = 64;
  for (let i = 0; i < pids.length; i += batch) {
    if (signal?.aborted) throw new ToolFailure('aborted', 'Stopped: the turn was interrupted.');
    const infos = await Promise.all(pids.slice(i, i + batch).map((pid) => readProc(procRoot, pid)));
    for (const info of infos) if (info !== undefined) processes.push(info);
  }
  return processes.sort((a, b) => a.pid - b.pid);
}

async function readProc(procRoot: string, pid: string): Promise<ProcessInfo | undefined> {
  const read = (file: string): Promise<string | undefined> =>
    readFile(path.join(procRoot, pid, file), 'utf8').catch(() => undefined);
  const [comm, cmdline, status] = await Promise.all([
    read('comm'),
    read('cmdline'),
    read('status'),
  ]);
  if (comm === undefined) return undefined; // exited while we looked
  const args = (cmdline ?? '').split('\0').filter((arg) => arg !== '');
  if (args.length === 0) return undefined;
  const shortName = comm.trim();
  const base = path.basename(args[0]!);
  // Node 24 names its main thread "MainThread", and `comm` is that thread's name: the
  // program's own name says more.
  const threadName = shortName === 'MainThread';
  const name =
    (base.startsWith(shortName) && shortName !== '') || threadName ? base : shortName || base;
  const rss = /^VmRSS:\s+(\d+)\s*kB/m.exec(status ?? '')?.[1];
  return {
    pid: Number(pid),
    name,
    command: args.join(' '),
    ...(rss !== undefined ? { memoryKb: Number(rss) } : {}),
  };
}

/** Linux: XDG desktop entries, `/proc`, and SIGTERM. */
export function createLinuxPlatform(deps: LinuxDeps): SystemPlatform {
  const procRoot = deps.procRoot ?? '/proc';
  return {
    label: 'Linux',
    listApps: () => listDesktopApps(deps.env, deps.homeDir),
    async openApp(app, signal) {
      if (app.terminal) {
        throw new ToolFailure(
          'unsupported',
          `${app.name} is a terminal program (Terminal=true): run it from a terminal instead.`,
        );
      }
      let argv: string[];
      try {
        argv = execToArgv(app.target ?? '');
      } catch (error) {
        throw new ToolFailure(
          'io',
          `${app.source} has a broken Exec line (${(error as Error).message}).`,
        );
      }
      const [program, ...args] = argv;
      if (program === undefined)
        throw new ToolFailure('io', `${app.source} has an empty Exec line.`);
      await deps.runner.launch(program, args, { signal });
    },
    listProcesses: (signal) => listProcProcesses(procRoot, signal),
    closeProcesses: async (processes) => terminateProcesses(processes, deps.kill),
  };
}
