/**
 * The folder's background agent, reached from a shell (`cogito send|approve|deny`): its
 * registry entry read, its socket connected. No agent there is exit {@link NO_AGENT_EXIT}
 * with a message naming what works: `cogito start`, or, where a screen is open, typing in
 * that screen or Ctrl+D there (`cogito start` would be refused).
 */
import type { LoadedConfig } from '../config/load.js';
import type { FolderFlags } from './commandArgs.js';
import { invokedAs } from '../core/invokedAs.js';
import { folderLockHolder } from '../history/lock.js';
import { resolveLanguage, t } from '../i18n/messages.js';
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
    const lang = resolveLanguage(folder.config.language, io.env);
    const cmd = invokedAs({ env: io.env });
    // A screen open there: `cogito start` would be refused, so name what works instead.
    const screen = folderLockHolder(home, workspace);
    const message =
      screen?.kind === 'screen'
        ? t(lang, 'send.screenOpen', { cmd, who, folder: workspace, pid: screen.pid })
        : t(lang, 'send.noAgent', {
            cmd,
            who,
            folder: workspace,
            quoted: JSON.stringify(workspace),
          });
    io.stderr.write(`${message}\n`);
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
