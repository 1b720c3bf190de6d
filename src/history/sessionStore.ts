import path from 'node:path';
import { errorCode, errorMessage, realFs } from './fsPort.js';
import type { HistoryFs } from './fsPort.js';
import type { Durability } from './jsonlLog.js';
import {
  HISTORY_FILE,
  META_FILE,
  readMeta,
  readMetaState,
  writeMeta,
  type SessionKind,
} from './meta.js';
import { MSG_LINE_PREFIX } from './records.js';
import { Session } from './sessionFiles.js';
import { isSafeSessionId, newSessionId } from './sessionId.js';

/** A session as listed, without loading its history. */
export interface SessionInfo {
  id: string;
  dir: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Last write to the history (epoch ms); the creation time for an empty session. */
  updatedAt: number;
  /** Messages ever written (compaction does not lower it). */
  messageCount: number;
  firstUserLine?: string;
  /** The real path of the session's workspace; `undefined` for a session from before that. */
  workspace?: string;
  /** Whether it belongs to the store's workspace (always true for a store without one). */
  here: boolean;
  /** Its `meta.json` is missing or damaged while its history is there: it is rebuilt on open. */
  metaLost?: true;
  /** A script's (`cogito -p`) or the user's; a session from before kinds is interactive. */
  kind: SessionKind;
}

/** A session that does not exist or cannot be named; `code` says which. */
export class SessionError extends Error {
  constructor(
    readonly code: 'ENOSESSION' | 'EBADID' | 'ECREATE',
    message: string,
  ) {
    super(message);
    this.name = 'SessionError';
  }
}

interface SessionStoreOptions {
  durability?: Durability;
  /** Injected file system (tests); defaults to `node:fs`. */
  fs?: HistoryFs;
  /** Clock for ids and file names (tests). */
  now?: () => number;
  /**
   * The real path of the workspace this process works in. New sessions record it; start-up
   * resumes only a session that has it; lists put its sessions first. Without it, every
   * session counts as this workspace's (the behaviour before sessions had a folder).
   */
  workspace?: string;
  /** Compare workspace paths ignoring case (Windows, macOS default file systems). */
  caseInsensitive?: boolean;
  /**
   * What this process is (default `interactive`): new sessions record it, and start-up
   * (`latest`, `openLatestOrCreate`) resumes only a session of the same kind, so a script's
   * `cogito -p` never changes which conversation the screen reopens.
   */
  kind?: SessionKind;
}

/**
 * The sessions under `<dataDir>/sessions/<id>/`. Each holds `history.jsonl`, `meta.json` and,
 * after compression, `archive.jsonl`. Ids sort by creation time.
 */
export class SessionStore {
  /** `<dataDir>/sessions`. */
  readonly sessionsDir: string;
  private readonly fs: HistoryFs;
  private readonly now: () => number;

  constructor(
    readonly dataDir: string,
    private readonly opts: SessionStoreOptions = {},
  ) {
    this.sessionsDir = path.join(dataDir, 'sessions');
    this.fs = opts.fs ?? realFs;
    this.now = opts.now ?? Date.now;
  }

  /** The workspace new sessions belong to, if the store has one. */
  get workspace(): string | undefined {
    return this.opts.workspace;
  }

  /** The kind of the sessions this store creates and resumes. */
  get kind(): SessionKind {
    return this.opts.kind ?? 'interactive';
  }

  /** All sessions: this workspace's first, each group most recently used first. */
  async list(): Promise<SessionInfo[]> {
    const all = this.scan(true);
    return [...all.filter((s) => s.here), ...all.filter((s) => !s.here)];
  }

  /** Whether a session recorded as belonging to `workspace` belongs to this store's. */
  isHere(workspace: string | undefined): boolean {
    const mine = this.opts.workspace;
    if (mine === undefined) return true;
    if (workspace === undefined) return false;
    const fold = (p: string): string => (this.opts.caseInsensitive ? p.toLowerCase() : p);
    return fold(path.resolve(workspace)) === fold(path.resolve(mine));
  }

  /**
   * Lists the session folders. Counting messages reads every history file, so start-up
   * (which only needs the latest) skips it.
   */
  private scan(withCounts: boolean): SessionInfo[] {
    let names: string[];
    try {
      names = this.fs
        .readdirSync(this.sessionsDir, { withFileTypes: true })
        .filter((d) => d.isDirectory() && isSafeSessionId(d.name))
        .map((d) => d.name);
    } catch (err) {
      if (errorCode(err) === 'ENOENT') return [];
      throw new Error(
        `Cannot list sessions in ${this.sessionsDir}: ${errorMessage(err)}. Check its permissions.`,
        { cause: err },
      );
    }
    const infos = names.flatMap((id) => {
      const info = this.info(id, withCounts);
      return info ? [info] : [];
    });
    return infos.sort(
      (a, b) => b.updatedAt - a.updatedAt || b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1),
    );
  }

  /**
   * The most recently used session of this workspace and of this store's kind, if any (its
   * messageCount is not computed: 0).
   */
  async latest(): Promise<SessionInfo | undefined> {
    const all = this.scan(false);
    const here = all.find((s) => s.here && s.kind === this.kind);
    // A session whose meta.json was lost no longer says whose or which kind it is. When it
    // is newer than every session of this workspace and kind, it is the one just used here
    // (its meta is rebuilt for this workspace and kind on open, with a warning); an older
    // one stays for --session to name.
    const lost = all.find((s) => s.metaLost);
    if (lost && (!here || lost.updatedAt > here.updatedAt)) return lost;
    return here;
  }

  /** What is known of session `id` without loading it; `undefined` when there is none. */
  describe(id: string): SessionInfo | undefined {
    return isSafeSessionId(id) ? this.info(id, false) : undefined;
  }

  /**
   * Makes a session opened by name (`--session`, `/resume ID`) this run's from now on:
   * one from before sessions had a folder gets this store's workspace, so it is resumed here;
   * a script's session opened by the user (an interactive store) becomes interactive, so the
   * screen resumes it next time. A script never turns the user's session into a script's.
   * A failure leaves the meta as it was, nothing worse.
   */
  adopt(session: Session): void {
    const workspace = this.opts.workspace;
    const meta = readMeta(this.fs, session.dir);
    const setFolder = workspace !== undefined && meta?.workspace === undefined;
    const promote = this.kind === 'interactive' && meta?.kind === 'print';
    if (!setFolder && !promote) return;
    try {
      writeMeta(this.fs, session.dir, {
        ...meta,
        id: session.id,
        createdAt: meta?.createdAt ?? this.now(),
        ...(setFolder ? { workspace } : {}),
        ...(promote ? { kind: 'interactive' as const } : {}),
      });
    } catch {
      // Only the folder link is lost; the history is untouched.
    }
  }

  /** Creates an empty session with a fresh id. */
  async create(): Promise<Session> {
    try {
      this.fs.mkdirSync(this.sessionsDir, { recursive: true });
    } catch (err) {
      throw new SessionError(
        'ECREATE',
        `Cannot create the sessions folder ${this.sessionsDir}: ${errorMessage(err)}. ` +
          `Check the permissions of ${this.dataDir} (or use --home DIR).`,
      );
    }
    for (let attempt = 0; ; attempt += 1) {
      const { id, createdAt } = newSessionId(this.now());
      const dir = path.join(this.sessionsDir, id);
      try {
        // Not recursive: EEXIST means another process picked the same id; pick again.
        this.fs.mkdirSync(dir);
        const workspace = this.opts.workspace;
        writeMeta(this.fs, dir, {
          id,
          createdAt,
          ...(workspace !== undefined ? { workspace } : {}),
          kind: this.kind,
        });
        // An empty history file makes the session's last use visible (its mtime) at once.
        this.fs.closeSync(this.fs.openSync(path.join(dir, HISTORY_FILE), 'a', 0o600));
      } catch (err) {
        if (errorCode(err) === 'EEXIST' && attempt < 5) continue;
        throw new SessionError(
          'ECREATE',
          `Cannot create a session in ${dir}: ${errorMessage(err)}. ` +
            `Check free disk space and the permissions of ${this.sessionsDir}.`,
        );
      }
      return Session.load(id, dir, this.opts);
    }
  }

  /** Opens an existing session. Rejects with a `SessionError` naming how to see the ids. */
  async open(id: string): Promise<Session> {
    if (!isSafeSessionId(id)) {
      throw new SessionError(
        'EBADID',
        `"${id}" is not a session id: ids look like 2026-11-30T20-15-03-123-k3x. ` +
          `The ids are the folder names in ${this.sessionsDir}.`,
      );
    }
    const dir = path.join(this.sessionsDir, id);
    if (!this.exists(dir)) {
      throw new SessionError(
        'ENOSESSION',
        `No session "${id}" in ${this.sessionsDir}. The ids are the folder names there ` +
          `(newest first in the session list); leave the id out to resume the latest session.`,
      );
    }
    return Session.load(id, dir, this.opts);
  }

  /** Resumes the most recently used session of this workspace, or starts its first one. */
  async openLatestOrCreate(): Promise<Session> {
    const latest = await this.latest();
    return latest ? this.open(latest.id) : this.create();
  }

  private exists(dir: string): boolean {
    try {
      return this.fs.statSync(dir).isDirectory();
    } catch {
      return false;
    }
  }

  /** Lists one session folder; `undefined` for a folder that holds neither meta nor history. */
  private info(id: string, withCount: boolean): SessionInfo | undefined {
    const dir = path.join(this.sessionsDir, id);
    const found = readMetaState(this.fs, dir);
    const meta = found.state === 'ok' ? found.meta : undefined;
    let historyMtime: number | undefined;
    let messageCount = 0;
    try {
      historyMtime = this.fs.statSync(path.join(dir, HISTORY_FILE)).mtimeMs;
      if (withCount) {
        messageCount = countOccurrences(
          this.fs.readFileSync(path.join(dir, HISTORY_FILE)),
          MSG_LINE_PREFIX,
        );
      }
    } catch {
      if (meta === undefined && !this.hasFile(dir, META_FILE)) return undefined;
    }
    const metaLost = found.state !== 'ok' && historyMtime !== undefined;
    const createdAt = meta?.createdAt ?? historyMtime ?? 0;
    const info: SessionInfo = {
      id,
      dir,
      createdAt,
      updatedAt: Math.max(createdAt, historyMtime ?? 0),
      messageCount,
      here: !metaLost && this.isHere(meta?.workspace),
      ...(metaLost ? { metaLost: true as const } : {}),
      kind: meta?.kind ?? 'interactive',
    };
    if (meta?.firstUserLine !== undefined) info.firstUserLine = meta.firstUserLine;
    if (meta?.workspace !== undefined) info.workspace = meta.workspace;
    return info;
  }

  private hasFile(dir: string, name: string): boolean {
    try {
      this.fs.statSync(path.join(dir, name));
      return true;
    } catch {
      return false;
    }
  }
}

/** Counts `needle` in `buf` without decoding it (histories can be large). */
function countOccurrences(buf: Buffer, needle: string): number {
  let count = 0;
  for (let i = buf.indexOf(needle); i !== -1; i = buf.indexOf(needle, i + needle.length)) {
    count += 1;
  }
  return count;
}
