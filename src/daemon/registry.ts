/**
 * The registry of background agents: one JSON file per running agent in `<home>/data/run/`,
 * so `cogito status` and `stop` find every agent of the home and its socket. An entry whose
 * process is gone is stale: it is removed (and the socket with it) by whoever finds it. "Gone"
 * includes a pid that now names another process (the agent died and the kernel gave its pid
 * away): the entry records the agent's start token, and a pid whose token differs is a
 * stranger, never trusted or signalled (core/processIdentity.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { atomicWriteFileSync, realFs } from '../core/fsPort.js';
import { keepAside } from '../core/keepAside.js';
import { isAlive } from '../core/processAlive.js';
import { identify, type ProcessIdentity } from '../core/processIdentity.js';
import { ensurePrivateDir, registryFile, runDir } from './places.js';

export interface RegistryEntry {
  workspace: string;
  pid: number;
  socket: string;
  /** ISO time the agent started. */
  started: string;
  log: string;
  /** The agent's start token (absent in entries an older Cogito wrote: then unverified). */
  startToken?: string;
}

/** Whether the entry's agent still runs (see {@link ProcessIdentity}). */
export function entryIdentity(entry: RegistryEntry): ProcessIdentity {
  return identify(entry.pid, entry.startToken);
}

/**
 * Writes `entry` in one step (the atomic writer: temp file, fsync, rename), mode 0600. A
 * damaged entry in its place is kept aside first (`<name>.corrupt-<time>.json`).
 */
export function writeEntry(home: string, entry: RegistryEntry): string {
  const file = registryFile(home, entry.workspace);
  ensurePrivateDir(path.dirname(file));
  if (exists(file) && !readFile(file)) keepAsideQuietly(file);
  atomicWriteFileSync(realFs, file, `${JSON.stringify(entry, null, 2)}\n`);
  return file;
}

/** The entry of `workspace`'s agent, if a well-formed one is there. */
export function readEntry(home: string, workspace: string): RegistryEntry | undefined {
  return readFile(registryFile(home, workspace));
}

/**
 * Every well-formed entry of the home. A damaged one (junk, a folder) is kept aside as
 * `<name>.corrupt-<time>.json` and removed from the list, and `warn` is told where the copy
 * is (or why none could be made); copies kept aside are skipped.
 */
export function listEntries(
  home: string,
  warn: (message: string) => void = () => undefined,
): RegistryEntry[] {
  let names: string[];
  try {
    names = fs
      .readdirSync(runDir(home))
      .filter((n) => n.endsWith('.json') && !n.includes('.corrupt-'));
  } catch {
    return [];
  }
  const entries: RegistryEntry[] = [];
  for (const name of names) {
    const file = path.join(runDir(home), name);
    const entry = readFile(file);
    if (entry) entries.push(entry);
    else warn(keepAsideQuietly(file));
  }
  return entries.sort((a, b) => a.workspace.localeCompare(b.workspace));
}

/**
 * Removes `entry` and its socket, but only while the file still names `entry.pid`: a newer
 * agent of the same folder may have replaced it meanwhile.
 */
export function removeEntry(home: string, entry: RegistryEntry): void {
  const file = registryFile(home, entry.workspace);
  if (readFile(file)?.pid !== entry.pid) return;
  removeQuietly(file);
  removeQuietly(entry.socket);
}

/**
 * After an agent died without stopping (kill -9, a crash), its children (MCP servers) may
 * live on in its process group: the agent led its own session, so the group has its pid.
 * The leader is dead, so nobody else can hold that group id; the survivors are ours to end.
 */
export function killOrphans(pid: number): void {
  if (process.platform === 'win32' || isAlive(pid)) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // No such group: nothing was left behind.
  }
}

function readFile(file: string): RegistryEntry | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<RegistryEntry>;
    if (
      typeof v.workspace === 'string' &&
      typeof v.pid === 'number' &&
      typeof v.socket === 'string' &&
      typeof v.started === 'string'
    ) {
      return {
        workspace: v.workspace,
        pid: v.pid,
        socket: v.socket,
        started: v.started,
        log: String(v.log ?? ''),
        ...(typeof v.startToken === 'string' ? { startToken: v.startToken } : {}),
      };
    }
  } catch {
    // Missing or junk.
  }
  return undefined;
}

function exists(file: string): boolean {
  try {
    fs.statSync(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * A damaged entry names no agent anyone can reach: keep it aside for a look and take it out
 * of the way. Its agent, if one still runs, writes its entry again on its next start.
 */
function keepAsideQuietly(file: string): string {
  try {
    const aside = keepAside(realFs, file);
    if (exists(file) && !fs.statSync(file).isDirectory()) removeQuietly(file);
    return `The agent registry entry ${file} was damaged; it was kept as ${aside}.`;
  } catch (err) {
    // Cannot copy it: leave it as it is (it is skipped when listed).
    return (
      `The agent registry entry ${file} is damaged and no copy could be made ` +
      `(${err instanceof Error ? err.message : String(err)}); it is left as it is. Move it away.`
    );
  }
}

function removeQuietly(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch {
    // Gone already.
  }
}
