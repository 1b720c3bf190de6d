/**
 * `cogito status [--json]`: every background agent of the home, each asked over its socket
 * for its state, since when, its last activity and the tokens spent today. One whose process
 * is gone is listed as gone and its entry cleaned (with anything it left running).
 */
import { resolveHome } from '../config/paths.js';
import type { AgentStatus } from './protocol.js';
import {
  entryIdentity,
  killOrphans,
  listEntries,
  removeEntry,
  type RegistryEntry,
} from './registry.js';
import { connectAgent } from './socketClient.js';
import type { DaemonDeps } from './startCommand.js';
import { stripTerminalControls } from '../safety/terminalFilter.js';
import { invokedAs } from '../core/invokedAs.js';
import { loadConfig } from '../config/load.js';
import { detectLanguage, resolveLanguage, t, type Lang } from '../i18n/messages.js';
import { describeRow, type StatusRow } from './statusText.js';

export type { StatusRow };

/**
 * Asks one agent for its status; a dead one (or one whose pid passed to a stranger) is
 * cleaned and reported gone; a silent one is reported gone and kept.
 */
export async function statusOf(home: string, entry: RegistryEntry): Promise<StatusRow> {
  if (entryIdentity(entry) !== 'gone') {
    try {
      const c = await connectAgent(entry.socket, 3000);
      try {
        if (c.pid !== entry.pid) throw new Error('another process answers on its socket');
        return { running: true, ...((await c.request('status')) as AgentStatus) };
      } finally {
        c.close();
      }
    } catch {
      // Alive but not answering: reported as it is, not cleaned (it may be starting).
      return {
        running: false,
        workspace: entry.workspace,
        pid: entry.pid,
        state: 'gone',
        started: entry.started,
        kept: true,
      };
    }
  }
  killOrphans(entry.pid);
  removeEntry(home, entry);
  return {
    running: false,
    workspace: entry.workspace,
    pid: entry.pid,
    state: 'gone',
    started: entry.started,
  };
}

export async function runStatus(
  opts: { json: boolean; home?: string | undefined },
  io: DaemonDeps,
): Promise<number> {
  const { home } = resolveHome({
    flag: opts.home,
    env: io.env,
    ...(io.cwd ? { cwd: io.cwd } : {}),
  });
  const rows = await Promise.all(
    listEntries(home, (m) => io.stderr.write(`warning: ${m}\n`)).map((e) => statusOf(home, e)),
  );
  if (opts.json) {
    io.stdout.write(`${jsonForTerminal(rows)}\n`);
    return 0;
  }
  const lang = statusLanguage(opts.home, io);
  const cmd = invokedAs({ env: io.env });
  if (rows.length === 0) {
    io.stdout.write(`${t(lang, 'statusCmd.none', { cmd })}\n`);
    return 0;
  }
  // The agent's words (its state, what it does) and the folder's name reach a terminal: the
  // same filter as -p's output.
  const now = Date.now();
  for (const r of rows)
    io.stdout.write(`${stripTerminalControls(describeRow(r, lang, cmd, now))}\n`);
  return 0;
}

/** The home's configured language, or the locale's when the config does not load. */
function statusLanguage(home: string | undefined, io: DaemonDeps): Lang {
  const loaded = loadConfig({
    env: io.env,
    flags: { home },
    ...(io.cwd ? { cwd: io.cwd } : {}),
  });
  return loaded.ok ? resolveLanguage(loaded.config.language, io.env) : detectLanguage(io.env);
}

/**
 * JSON whose every control is escaped: JSON.stringify leaves C1 controls and bidi overrides
 * raw, and a terminal would act on them; `\uXXXX` reads back the same.
 */
function jsonForTerminal(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
