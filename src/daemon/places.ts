/**
 * Where a folder's background agent keeps its runtime files: its socket, its registry entry
 * and its log, all inside the app home's data folder (git-ignored, fenced from the tools).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { appPaths } from '../config/paths.js';

/**
 * The longest socket path every supported system accepts: Linux allows 107 bytes in
 * `sun_path`, macOS 103. Longer paths fail to bind, so they move to a short folder.
 */
export const MAX_SOCKET_PATH_BYTES = 103;

/** The short name of a folder's agent: a hash of the folder's real path. */
export function agentKey(workspace: string): string {
  return createHash('sha256').update(workspace).digest('hex').slice(0, 16);
}

/** The folder of sockets and registry entries (0700). */
export function runDir(home: string): string {
  return path.join(appPaths(home).data, 'run');
}

/**
 * Whether any background agent of this home may be registered: false when the registry
 * holds no entry at all, which the screen checks before reading the configuration (its
 * schemas cost the first frame ~30 ms) to find the folder's agent.
 */
export function anyRegistered(home: string): boolean {
  try {
    return fs.readdirSync(runDir(home)).some((name) => name.endsWith('.json'));
  } catch {
    return false;
  }
}

/** The registry entry of `workspace`'s agent. */
export function registryFile(home: string, workspace: string): string {
  return path.join(runDir(home), `${agentKey(workspace)}.json`);
}

/** Where the background agent's stdout and stderr go. */
export function agentLogFile(home: string, workspace: string): string {
  return path.join(appPaths(home).logs, `agent-${agentKey(workspace)}.log`);
}

/** Makes `dir` (and parents) with mode 0700, and tightens it if it existed looser. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
}

/**
 * The socket path of `workspace`'s agent: `<home>/data/run/<key>.sock`, or, when that is too
 * long for `sun_path`, `$XDG_RUNTIME_DIR/cogito/` or `<tmp>/cogito-<uid>/` with a key that
 * also names the home (two homes may run the same folder). The chosen path is recorded in
 * the registry, so clients never need to guess it.
 */
export function socketPathFor(home: string, workspace: string, env = process.env): string {
  const inHome = path.join(runDir(home), `${agentKey(workspace)}.sock`);
  if (Buffer.byteLength(inHome) <= MAX_SOCKET_PATH_BYTES) return inHome;
  const key = agentKey(`${home}\0${workspace}`);
  const runtime = env.XDG_RUNTIME_DIR;
  const base = runtime
    ? path.join(runtime, 'cogito')
    : path.join(os.tmpdir(), `cogito-${process.getuid?.() ?? 'user'}`);
  return path.join(base, `${key}.sock`);
}

/**
 * Prepares the socket's folder: 0700, and ours. A shared folder such as /tmp lets another
 * user create `cogito-<uid>` first and wait for our socket in it: a folder we do not own, or
 * a symlink, is refused with the way out.
 */
export function prepareSocketDir(socketPath: string): void {
  const dir = path.dirname(socketPath);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Judged before it is touched: a planted folder is not ours to change.
  const st = fs.lstatSync(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) {
    throw new Error(
      `The socket folder ${dir} is not a folder of this user (owner uid ${st.uid}). ` +
        'Remove it, or use a shorter --home so the socket stays inside the home.',
    );
  }
  fs.chmodSync(dir, 0o700);
}
