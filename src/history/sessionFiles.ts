import path from 'node:path';
import type { HistoryMessage } from '../core/messages.js';
import { OK } from './appendResult.js';
import type { AppendResult } from './appendResult.js';
import { realFs } from './fsPort.js';
import type { HistoryFs } from './fsPort.js';
import { JsonlLog } from './jsonlLog.js';
import type { Durability } from './jsonlLog.js';
import { loadLog } from './loadLog.js';
import {
  ARCHIVE_FILE,
  firstLine,
  HISTORY_FILE,
  readMeta,
  readMetaState,
  writeMeta,
  type SessionKind,
} from './meta.js';
import { rebuildMeta } from './rebuildMeta.js';
import { messageProblem, serializeRecord } from './records.js';
import type { HistoryRecord } from './records.js';
import { applyCompact, replay } from './replay.js';

/** How a session reads and writes its files. */
interface SessionOptions {
  durability?: Durability;
  /** Injected file system (tests); defaults to `node:fs`. */
  fs?: HistoryFs;
  /** Clock for the names of moved-aside files (tests). */
  now?: () => number;
  /** The workspace a rebuilt `meta.json` records (the one that opens the session). */
  workspace?: string;
  /** The kind a rebuilt `meta.json` records (that of the store that opens the session). */
  kind?: SessionKind;
}

/**
 * One conversation on disk: `history.jsonl` (the live conversation, append-only), `archive.jsonl`
 * (originals replaced by compression) and `meta.json`. Appends are synchronous, so a message is
 * on its way to disk before the next model call. Write failures are returned, never thrown; the
 * message stays in memory and in a pending queue that is written, in order, before anything newer.
 */
export class Session {
  /** Problems found while loading (unreadable lines recovered, files moved aside). */
  readonly loadWarnings: string[];
  private live: HistoryMessage[];
  private readonly pending: HistoryRecord[] = [];
  private readonly log: JsonlLog;
  private readonly archiveLog: JsonlLog;
  private readonly fs: HistoryFs;
  private hasFirstUserLine: boolean;

  private constructor(
    readonly id: string,
    readonly dir: string,
    loaded: { messages: HistoryMessage[]; warnings: string[]; hasFirstUserLine: boolean },
    opts: SessionOptions,
  ) {
    this.fs = opts.fs ?? realFs;
    this.live = loaded.messages;
    this.loadWarnings = loaded.warnings;
    this.hasFirstUserLine = loaded.hasFirstUserLine;
    const logOpts = { fs: this.fs, durability: opts.durability ?? 'write' };
    this.log = new JsonlLog(path.join(dir, HISTORY_FILE), logOpts);
    this.archiveLog = new JsonlLog(path.join(dir, ARCHIVE_FILE), logOpts);
  }

  /**
   * Loads the session in `dir`, repairing a damaged history (see `loadLog`). Throws only when
   * the history exists but cannot be read at all.
   */
  static load(id: string, dir: string, opts: SessionOptions = {}): Session {
    const fs = opts.fs ?? realFs;
    const now = opts.now ?? Date.now;
    const loaded = loadLog(fs, path.join(dir, HISTORY_FILE), now());
    const replayed = replay(loaded.records);
    const warnings = [...loaded.warnings, ...replayed.warnings];
    const found = readMetaState(fs, dir);
    if (found.state !== 'ok') {
      warnings.push(
        rebuildMeta(fs, dir, found, {
          id,
          messages: replayed.messages,
          workspace: opts.workspace,
          ...(opts.kind ? { kind: opts.kind } : {}),
          now: now(),
        }),
      );
    }
    const meta = readMeta(fs, dir);
    return new Session(
      id,
      dir,
      {
        messages: replayed.messages,
        warnings,
        hasFirstUserLine: meta?.firstUserLine !== undefined,
      },
      opts,
    );
  }

  /** The live conversation, loaded and appended, in order (a copy: mutating it changes nothing). */
  messages(): readonly HistoryMessage[] {
    return this.live.slice();
  }

  /** Records not yet on disk because a write failed; retried before the next write. */
  get pendingCount(): number {
    return this.pending.length;
  }

  /**
   * Adds `msg` to the conversation and writes it (after any pending records). When it returns
   * ok, the bytes reached the kernel (or the disk with `durability: 'fsync'`). On failure the
   * message is kept in memory and written by a later `append` or `flush`.
   */
  append(msg: HistoryMessage): AppendResult {
    const problem = messageProblem(msg);
    if (problem) {
      return {
        ok: false,
        error: { code: 'EINVAL', message: `Cannot save a malformed message (${problem}).` },
      };
    }
    this.live.push(msg);
    this.pending.push({ t: 'msg', m: msg });
    const result = this.flush();
    if (msg.role === 'user' && !this.hasFirstUserLine) this.recordFirstUserLine(msg.content);
    return result;
  }

  /** Writes pending records, oldest first, in one write. */
  flush(): AppendResult {
    if (this.pending.length === 0) return OK;
    const result = this.log.append(this.pending.map(serializeRecord));
    if (result.ok) this.pending.length = 0;
    return result;
  }

  /**
   * Appends `messages` to `archive.jsonl`: the originals that compression is about to replace.
   * Not queued on failure: the caller must then skip compaction, which leaves the originals in
   * the live history, so nothing is lost.
   */
  archive(messages: readonly HistoryMessage[]): AppendResult {
    for (const m of messages) {
      const problem = messageProblem(m);
      if (problem) {
        return {
          ok: false,
          error: { code: 'EINVAL', message: `Cannot archive a malformed message (${problem}).` },
        };
      }
    }
    return this.archiveLog.append(messages.map((m) => serializeRecord({ t: 'msg', m })));
  }

  /** Everything archived so far, oldest first (unreadable lines are skipped). */
  archivedMessages(): HistoryMessage[] {
    const loaded = loadLog(this.fs, this.archiveLog.path);
    return loaded.records.flatMap((r) => (r.t === 'msg' ? [r.m] : []));
  }

  /**
   * Replaces the live messages from the start through `upToId` by `summary`, recorded as one
   * `compact` line (the file is not rewritten). Archive the originals first with `archive`.
   * Like `append`, a failed write is kept pending and retried.
   */
  compact(summary: HistoryMessage, upToId: string): AppendResult {
    const problem = messageProblem(summary);
    if (problem) {
      return {
        ok: false,
        error: { code: 'EINVAL', message: `Cannot save a malformed summary (${problem}).` },
      };
    }
    const upTo = this.live.findIndex((m) => m.id === upToId);
    if (upTo === -1) {
      return {
        ok: false,
        error: {
          code: 'EUNKNOWNID',
          message: `Cannot compact up to message ${upToId}: it is not in the live history.`,
        },
      };
    }
    this.live = applyCompact(this.live, summary, upTo);
    this.pending.push({ t: 'compact', summary, upToId });
    return this.flush();
  }

  /** Tries once more to write pending records, then closes the files. */
  close(): void {
    this.flush();
    this.log.close();
    this.archiveLog.close();
  }

  /** Saves the session's title once; a failure only costs the title, so it is ignored. */
  private recordFirstUserLine(content: string): void {
    const line = firstLine(content);
    if (line === '') return;
    this.hasFirstUserLine = true;
    try {
      const meta = readMeta(this.fs, this.dir);
      writeMeta(this.fs, this.dir, {
        ...meta,
        id: this.id,
        createdAt: meta?.createdAt ?? Date.now(),
        firstUserLine: line,
      });
    } catch {
      // The title is derived data; the history itself is what must be saved.
    }
  }
}
