/**
 * The folder's background agent, reached from a shell (`cogito send|approve|deny`): its
 * registry entry read, its socket connected. No agent there is exit {@link NO_AGENT_EXIT}
 * with a message naming `cogito start`.
 */
import type { LoadedConfig } from '../config/load.js';
import type { FolderFlags } from './commandArgs.js';
import { readEntry } from './registry.js';
import { connectAgent, type AgentConnection } from './socketClient.js';
import { answering, resolveFolder, type DaemonDeps } from './startCommand.js';

/** The exit code of a shell command for a folder where no background agent runs. */
export const NO_AGENT_EXIT = 4;

export type Reached =
  | { ok: true; connection: AgentConnection; workspace: string; config: LoadedConfig }
  | { ok: false; code: number };

/** Connects to `flags`' folder's agent, or writes why not on stderr and gives the exit code. */
export async function reachAgent(
  flags: FolderFlags,
  io: DaemonDeps,
  who: string,
): Promise<Reached> {
  const folder = resolveFolder(flags, io);
  if (!folder.ok) {
    io.stderr.write(`${folder.message}\n`);
    return { ok: false, code: 2 };
  }
  const { home, workspace } = folder;
  const entry = readEntry(home, workspace);
  if (!entry || !(await answering(entry))) {
    const dir = JSON.stringify(workspace);
    io.stderr.write(
      `cogito ${who}: no Cogito runs in the background in ${workspace}. ` +
        `Start one first: cogito start --workspace ${dir} (or see them all: cogito status).\n`,
    );
    return { ok: false, code: NO_AGENT_EXIT };
  }
  try {
    const connection = await connectAgent(entry.socket, 3000);
    return { ok: true, connection, workspace, config: folder.config };
  } catch (err) {
    io.stderr.write(`cogito ${who}: ${err instanceof Error ? err.message : String(err)}\n`);
    return { ok: false, code: 1 };
  }
}
