import type { Session, SessionStore } from '../history/index.js';

/** A session named with `--session` that belongs to another workspace. */
export interface ForeignSession {
  id: string;
  /** The workspace the session belongs to (real path). */
  sessionWorkspace: string;
  /** The workspace this run works in (real path). */
  workspace: string;
}

export interface OpenSessionOptions {
  /** `--session ID`; without it, the latest session of this workspace (or a new one). */
  id?: string | undefined;
  /** Without `id`: start a new session rather than continue the latest (print mode). */
  fresh?: boolean | undefined;
  /** `--force`: open a session of another workspace without asking. */
  force?: boolean | undefined;
  /**
   * Asks the user whether to open a session of another workspace (the full-screen app);
   * without it (print mode) such a session is refused unless `force` is set.
   */
  confirm?: ((session: ForeignSession) => Promise<boolean>) | undefined;
}

export type OpenSessionResult =
  { ok: true; session: Session } | { ok: false; message: string; exitCode: number };

/**
 * Opens the session this run works in. A session belongs to the workspace it was started
 * in: its history talks about that folder's files, so continuing it elsewhere would mislead
 * the model and carry one folder's private notes into another. Naming one from another
 * workspace therefore needs `--force` or the user's yes. A session from before sessions had
 * a folder is opened and from then on belongs to this workspace.
 * Errors from the store (an unknown id, a disk failure) propagate to the caller.
 */
export async function openWorkspaceSession(
  store: SessionStore,
  opts: OpenSessionOptions,
): Promise<OpenSessionResult> {
  if (opts.id === undefined) {
    const session = opts.fresh ? await store.create() : await store.openLatestOrCreate();
    return { ok: true, session };
  }
  const info = store.describe(opts.id);
  const here = store.workspace;
  if (info?.workspace !== undefined && here !== undefined && !info.here && !opts.force) {
    const foreign: ForeignSession = {
      id: opts.id,
      sessionWorkspace: info.workspace,
      workspace: here,
    };
    const yes = opts.confirm ? await opts.confirm(foreign) : false;
    if (!yes)
      return { ok: false, message: refusal(foreign, opts.confirm !== undefined), exitCode: 2 };
  }
  const session = await store.open(opts.id);
  store.adopt(session);
  return { ok: true, session };
}

function refusal(s: ForeignSession, asked: boolean): string {
  const why = asked ? 'Not opened' : 'Refused';
  return (
    `cogito: ${why}: session ${s.id} belongs to the workspace ${s.sessionWorkspace}, ` +
    `not ${s.workspace}. Run cogito in that folder (or with --workspace ${s.sessionWorkspace}), ` +
    `or add --force to continue it here anyway.`
  );
}
