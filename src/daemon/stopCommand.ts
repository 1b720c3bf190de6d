/**
 * `cogito stop [--workspace DIR | --all]`: asks the agent to quit over its socket and waits
 * for its process to end; one that does not end in time gets SIGTERM, then SIGKILL (its
 * whole process group, so its MCP servers go with it). Nothing running there: exit 0. Only
 * the agent itself is ever signalled: a pid whose start token is not the recorded one (the
 * agent died and a stranger got its pid) is cleaned up as gone, and a pid that cannot be
 * verified (an entry without a token) only if it answers on the socket as that pid.
 */
import { resolveHome } from '../config/paths.js';
import {
  entryIdentity,
  killOrphans,
  listEntries,
  readEntry,
  removeEntry,
  type RegistryEntry,
} from './registry.js';
import { connectAgent } from './socketClient.js';
import { killGroup, resolveFolder, type DaemonDeps } from './startCommand.js';

/** How long an agent has to finish its turn's save and quit before it is signalled. */
const QUIT_DEADLINE_MS = 20_000;
const TERM_DEADLINE_MS = 5_000;

export async function runStop(
  opts: { all: boolean; workspace?: string | undefined; home?: string | undefined },
  io: DaemonDeps,
): Promise<number> {
  let home: string;
  let entries: RegistryEntry[];
  if (opts.all) {
    home = resolveHome({ flag: opts.home, env: io.env, ...(io.cwd ? { cwd: io.cwd } : {}) }).home;
    entries = listEntries(home, (m) => io.stderr.write(`warning: ${m}\n`));
  } else {
    const folder = resolveFolder(opts, io);
    if (!folder.ok) {
      io.stderr.write(`${folder.message}\n`);
      return 2;
    }
    home = folder.home;
    const entry = readEntry(home, folder.workspace);
    entries = entry ? [entry] : [];
    if (!entry) {
      io.stdout.write(`No Cogito runs in the background in ${folder.workspace}.\n`);
      return 0;
    }
  }
  let code = 0;
  for (const entry of entries) {
    const how = await stopOne(entry);
    if (how !== 'unverified') removeEntry(home, entry);
    if (how === 'failed' || how === 'unverified') code = 1;
    io.stdout.write(`${entry.workspace}: ${DESCRIBE[how]} (pid ${entry.pid})\n`);
  }
  return code;
}

type StopOutcome = 'gone' | 'quit' | 'terminated' | 'killed' | 'failed' | 'unverified';

const DESCRIBE: Record<StopOutcome, string> = {
  gone: 'was not running any more; cleaned up',
  quit: 'stopped',
  terminated: 'did not quit in time; stopped with SIGTERM',
  killed: 'did not stop; killed',
  failed: 'could not be stopped; kill it by hand',
  unverified:
    'does not answer, and its entry (from an older cogito) cannot tell whether that pid is still the agent: nothing was signalled; if it is, kill it by hand',
};

async function stopOne(entry: RegistryEntry): Promise<StopOutcome> {
  const { pid } = entry;
  let identity = entryIdentity(entry);
  if (identity === 'gone') {
    // Dead, or its pid now a stranger's: nothing is signalled (killOrphans spares a live pid).
    killOrphans(pid);
    return 'gone';
  }
  try {
    const c = await connectAgent(entry.socket, 3000);
    if (c.pid !== pid) c.close();
    else {
      // The socket's hello names the agent's pid: that is the agent, whatever the entry lacks.
      identity = 'same';
      await c.request('stop', 3000).finally(() => c.close());
      if (await exited(entry, QUIT_DEADLINE_MS)) return finish(pid, 'quit');
    }
  } catch {
    // Not answering: the signals below.
  }
  if (identity !== 'same') return 'unverified';
  killGroup(pid, 'SIGTERM');
  if (await exited(entry, TERM_DEADLINE_MS)) return finish(pid, 'terminated');
  // Checked again before the harder signal: the pid may have passed to another process.
  if (entryIdentity(entry) !== 'same') return finish(pid, 'terminated');
  killGroup(pid, 'SIGKILL');
  return finish(pid, (await exited(entry, TERM_DEADLINE_MS)) ? 'killed' : 'failed');
}

/** Whatever the agent's group still holds (a server that ignored its stop) goes too. */
function finish(pid: number, outcome: StopOutcome): StopOutcome {
  killOrphans(pid);
  return outcome;
}

/** Whether the entry's process ended within `timeoutMs` (its pid gone, or another's now). */
async function exited(entry: RegistryEntry, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (entryIdentity(entry) === 'gone') return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return entryIdentity(entry) === 'gone';
}
