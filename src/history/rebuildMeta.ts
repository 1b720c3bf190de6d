import path from 'node:path';
import type { HistoryMessage } from '../core/messages.js';
import type { HistoryFs } from './fsPort.js';
import { errorMessage } from './fsPort.js';
import { keepAside } from '../core/keepAside.js';
import { firstLine, META_FILE, writeMeta } from './meta.js';
import type { MetaState, SessionKind, SessionMeta } from './meta.js';

/**
 * A session's `meta.json` that is gone or does not read is rebuilt from what survives: the
 * folder's name (the id, which holds the creation time), the history (its first user line,
 * its first message's time) and the workspace that resumes it. A damaged file is kept aside
 * as `meta.corrupt-<time>.json` first, so nothing that was on disk is destroyed. Without
 * this the session silently counted as nobody's and `-c` started a new one beside it.
 */
export function rebuildMeta(
  fs: HistoryFs,
  dir: string,
  found: Exclude<MetaState, { state: 'ok' }>,
  opts: {
    id: string;
    messages: readonly HistoryMessage[];
    workspace: string | undefined;
    kind?: SessionKind;
    now: number;
  },
): string {
  let kept = '';
  if (found.state === 'damaged') {
    try {
      kept = `; the original was kept as ${keepAside(fs, path.join(dir, META_FILE), opts.now)}`;
    } catch (err) {
      // Without a copy the damaged file is left as it is: nothing is written over it.
      return (
        `Session ${opts.id}: its ${META_FILE} does not read (${found.reason}) and could not be ` +
        `copied aside (${errorMessage(err)}); it was left untouched. Fix or delete it.`
      );
    }
  }
  const firstUser = opts.messages.find((m) => m.role === 'user');
  const meta: SessionMeta = {
    id: opts.id,
    createdAt: idTime(opts.id) ?? opts.messages[0]?.at ?? opts.now,
    ...(firstUser && firstLine(firstUser.content) !== ''
      ? { firstUserLine: firstLine(firstUser.content) }
      : {}),
    ...(opts.workspace !== undefined ? { workspace: opts.workspace } : {}),
    ...(opts.kind ? { kind: opts.kind } : {}),
  };
  const what =
    found.state === 'missing'
      ? `its ${META_FILE} was missing`
      : `its ${META_FILE} did not read (${found.reason})${kept}`;
  try {
    writeMeta(fs, dir, meta);
  } catch (err) {
    return `Session ${opts.id}: ${what}; rebuilding it failed (${errorMessage(err)}), the history is untouched.`;
  }
  return `Session ${opts.id}: ${what}; rebuilt from the session folder and its history.`;
}

/** The creation time in an id made by newSessionId (`2026-11-30T20-15-03-123-k3x`). */
function idTime(id: string): number | undefined {
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d)-(\d\d)-(\d\d)-(\d{3})-/.exec(id);
  if (!m) return undefined;
  const t = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`);
  return Number.isFinite(t) ? t : undefined;
}
