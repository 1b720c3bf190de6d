/**
 * `cogito start`: starts the folder's agent in the background (a detached child in its own
 * session, its output to a log file in the app home) and returns once it answers on its
 * socket, printing its pid, its folder and how to stop it. An agent already running there is
 * reported and left alone (exit 0); a folder a full-screen Cogito holds is refused (exit 3).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, type LoadedConfig } from '../config/load.js';
import { formatConfigIssues } from '../config/format.js';
import { startArgs, type StartFlags } from './commandArgs.js';
import { agentLogFile, ensurePrivateDir } from './places.js';
import {
  entryIdentity,
  killOrphans,
  readEntry,
  removeEntry,
  type RegistryEntry,
} from './registry.js';
import { connectAgent } from './socketClient.js';
import { acquireStartLock, folderLockHolder } from '../history/lock.js';
import { invokedAs } from '../core/invokedAs.js';

export interface DaemonDeps {
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  cwd?: string;
  /** Why this config cannot run an agent (no model configured), if it cannot; the CLI's check. */
  refuseConfig?(config: LoadedConfig): string | undefined;
}

/** How long a starting agent has to answer on its socket (a cold start through tsx is slow). */
const START_DEADLINE_MS = 60_000;

/** The home and the folder's real path, as the agent will resolve them; or why not. */
export function resolveFolder(
  flags: { workspace?: string | undefined; home?: string | undefined },
  io: DaemonDeps,
):
  | { ok: true; home: string; workspace: string; config: LoadedConfig }
  | { ok: false; message: string } {
  const loaded = loadConfig({ env: io.env, flags, ...(io.cwd ? { cwd: io.cwd } : {}) });
  if (!loaded.ok) return { ok: false, message: formatConfigIssues(loaded.errors, loaded.file) };
  let workspace: string;
  try {
    workspace = fs.realpathSync(loaded.config.workspace);
  } catch {
    return {
      ok: false,
      message: `The folder ${loaded.config.workspace} does not exist. Create it, or name another with --workspace DIR.`,
    };
  }
  return { ok: true, home: loaded.home, workspace, config: loaded.config };
}

/**
 * The agent of this entry, if it is still that process (its start token) and answers on its
 * socket as that pid (its hello names it).
 */
export async function answering(entry: RegistryEntry | undefined): Promise<boolean> {
  if (!entry || entryIdentity(entry) === 'gone') return false;
  try {
    const c = await connectAgent(entry.socket, 2000);
    c.close();
    return c.pid === entry.pid;
  } catch {
    return false;
  }
}

export async function runStart(flags: StartFlags, io: DaemonDeps): Promise<number> {
  const folder = resolveFolder(flags, io);
  if (!folder.ok) {
    io.stderr.write(`${folder.message}\n`);
    return 2;
  }
  const refused = io.refuseConfig?.(folder.config);
  if (refused !== undefined) {
    io.stderr.write(`${refused}\n`);
    return 2;
  }
  const { home, workspace } = folder;
  // One start at a time per folder: the check below and the start after it are one step,
  // so a start that races another finds the agent the other started (exit 0), never a
  // half-started one (src/history/lock.ts; test/daemon/concurrentStarts.test.ts).
  const lock = await startLock(home, workspace);
  if (!lock.ok) {
    io.stderr.write(`cogito: ${lock.message}\n`);
    return 1;
  }
  try {
    return await startLocked(flags, io, home, workspace);
  } finally {
    lock.release();
  }
}

/** Waits (until the start deadline) for the folder's start lock. */
async function startLock(
  home: string,
  workspace: string,
): Promise<{ ok: true; release(): void } | { ok: false; message: string }> {
  const deadline = Date.now() + START_DEADLINE_MS;
  for (;;) {
    const lock = acquireStartLock(home, workspace);
    if (lock.ok || lock.holder === undefined) return lock;
    if (Date.now() > deadline) {
      return {
        ok: false,
        message: `another cogito start (pid ${lock.holder.pid}) has been starting the agent in ${workspace} for ${START_DEADLINE_MS / 1000} s. Try again, or end it: kill ${lock.holder.pid}`,
      };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function startLocked(
  flags: StartFlags,
  io: DaemonDeps,
  home: string,
  workspace: string,
): Promise<number> {
  const existing = readEntry(home, workspace);
  if (existing && (await answering(existing))) return alreadyRuns(existing, io);
  if (existing && entryIdentity(existing) === 'gone') {
    // Left by an agent that died without stopping (its pid gone, or now a stranger's): end
    // what it left and forget it. A stranger is never signalled (killOrphans spares a live pid).
    killOrphans(existing.pid);
    removeEntry(home, existing);
  }
  const log = agentLogFile(home, workspace);
  ensurePrivateDir(path.dirname(log));
  const offset = fs.existsSync(log) ? fs.statSync(log).size : 0;
  const fd = fs.openSync(log, 'a', 0o600);
  const child = spawn(
    process.execPath,
    [
      ...process.execArgv,
      process.argv[1] ?? '',
      'start',
      '--foreground',
      ...startArgs({ ...flags, workspace, home }),
    ],
    { cwd: workspace, env: io.env, detached: true, stdio: ['ignore', fd, fd] },
  );
  fs.closeSync(fd);
  let exited: number | undefined;
  child.on('exit', (code, signal) => (exited = code ?? (signal ? 1 : 0)));
  child.on('error', () => (exited = 1));
  child.unref();
  const deadline = Date.now() + START_DEADLINE_MS;
  while (Date.now() < deadline) {
    if (exited !== undefined) {
      // Two starts at once: the other took the folder first. That is an agent running here,
      // as this start asked, not a failure.
      const winner = exited === 3 ? await otherAgent(home, workspace, deadline) : undefined;
      if (winner) return alreadyRuns(winner, io);
      io.stderr.write(`cogito: the background agent did not start:\n${logSince(log, offset)}`);
      return exited === 0 ? 1 : exited;
    }
    const entry = readEntry(home, workspace);
    if (entry !== undefined && entry.pid === child.pid && (await answering(entry))) {
      const cmd = invokedAs({ env: io.env });
      io.stdout.write(
        `Cogito runs in the background in ${workspace} (pid ${entry.pid}).\n` +
          `  status: ${cmd} status\n` +
          `  stop:   ${cmd} stop --workspace ${JSON.stringify(workspace)}\n` +
          `  log:    ${log}\n`,
      );
      return 0;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  if (child.pid !== undefined) killGroup(child.pid);
  io.stderr.write(
    `cogito: the background agent did not answer within ${START_DEADLINE_MS / 1000} s and was stopped. Its log: ${log}\n`,
  );
  return 1;
}

function alreadyRuns(entry: RegistryEntry, io: DaemonDeps): number {
  io.stdout.write(
    `Cogito already runs in the background in ${entry.workspace} (pid ${entry.pid}).\n`,
  );
  return 0;
}

/**
 * The background agent another start launched in `workspace`, once it answers: while the
 * folder's lock names a live background Cogito, its entry is waited for (it may be opening
 * its socket); otherwise, or at the deadline, none.
 */
async function otherAgent(
  home: string,
  workspace: string,
  deadline: number,
): Promise<RegistryEntry | undefined> {
  while (Date.now() < deadline) {
    const entry = readEntry(home, workspace);
    if (entry && (await answering(entry))) return entry;
    if (folderLockHolder(home, workspace)?.kind !== 'background') return undefined;
    await new Promise((r) => setTimeout(r, 50));
  }
  return undefined;
}

/** Ends a process and its group (it leads its own session). */
export function killGroup(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone already.
    }
  }
}

function logSince(log: string, offset: number): string {
  try {
    const text = fs.readFileSync(log).subarray(offset).toString('utf8');
    return text.endsWith('\n') || text === '' ? text : `${text}\n`;
  } catch {
    return `(no log at ${log})\n`;
  }
}
