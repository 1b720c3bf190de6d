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

/** Writes `entry` in one step (a temporary file renamed into place), mode 0600. */
export function writeEntry(home: string, entry: RegistryEntry): string {
  const file = registryFile(home, entry.workspace);
  ensurePrivateDir(path.dirname(file));
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(entry, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
  return file;
}

/** The entry of `workspace`'s agent, if a well-formed one is there. */
export function readEntry(home: string, workspace: string): RegistryEntry | undefined {
  return readFile(registryFile(home, workspace));
}

/** Every well-formed entry of the home (junk files are removed). */
export function listEntries(home: string): RegistryEntry[] {
  let names: string[];
  try {
    names = fs.readdirSync(runDir(home)).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const entries: RegistryEntry[] = [];
  for (const name of names) {
    const file = path.join(runDir(home), name);
    const entry = readFile(file);
    if (entry) entries.push(entry);
    else removeQuietly(file);
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

function removeQuietly(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch {
    // Gone already.
  }
}
