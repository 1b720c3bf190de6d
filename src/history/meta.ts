import path from 'node:path';
import { atomicWriteFileSync, errorCode, errorMessage } from './fsPort.js';
import type { HistoryFs } from './fsPort.js';

/**
 * Who a session is for: `interactive` (the screen or the background agent: the user's
 * conversation) or `print` (a `cogito -p` run, a script's). Start-up resumes only sessions of
 * its own kind, so a script's run never becomes the conversation the screen reopens.
 */
export type SessionKind = 'interactive' | 'print';

/** `meta.json` in a session folder. Small and rewritten atomically, unlike the history. */
export interface SessionMeta {
  id: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /** The first line of the first user message: the session's title in lists. */
  firstUserLine?: string;
  /**
   * The real path of the workspace the session belongs to. Missing in sessions made before
   * sessions were tied to a folder: those are listed as "no folder" and never resumed
   * automatically.
   */
  workspace?: string;
  /** Missing in sessions made before kinds existed: those count as interactive. */
  kind?: SessionKind;
}

export const META_FILE = 'meta.json';
export const HISTORY_FILE = 'history.jsonl';
export const ARCHIVE_FILE = 'archive.jsonl';

/** What reading `meta.json` found: the meta, no file, or a file that does not read. */
export type MetaState =
  | { state: 'ok'; meta: Partial<SessionMeta> }
  | { state: 'missing' }
  | { state: 'damaged'; reason: string };

/** Reads `meta.json`, saying whether it is missing or damaged (then it can be rebuilt). */
export function readMetaState(fs: HistoryFs, dir: string): MetaState {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, META_FILE), 'utf8');
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT') return { state: 'missing' };
    return { state: 'damaged', reason: code ?? errorMessage(err) };
  }
  try {
    const meta = parseMeta(JSON.parse(text));
    return meta && meta.id !== undefined
      ? { state: 'ok', meta }
      : { state: 'damaged', reason: 'not a session meta object' };
  } catch (err) {
    return { state: 'damaged', reason: errorMessage(err) };
  }
}

/** Reads `meta.json`; `undefined` when missing or unreadable (the history is what matters). */
export function readMeta(fs: HistoryFs, dir: string): Partial<SessionMeta> | undefined {
  try {
    return parseMeta(JSON.parse(fs.readFileSync(path.join(dir, META_FILE), 'utf8')));
  } catch {
    return undefined;
  }
}

function parseMeta(value: unknown): Partial<SessionMeta> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  const meta: Partial<SessionMeta> = {};
  if (typeof v.id === 'string') meta.id = v.id;
  if (typeof v.createdAt === 'number' && Number.isFinite(v.createdAt)) meta.createdAt = v.createdAt;
  if (typeof v.firstUserLine === 'string') meta.firstUserLine = v.firstUserLine;
  if (typeof v.workspace === 'string' && v.workspace !== '') meta.workspace = v.workspace;
  if (v.kind === 'interactive' || v.kind === 'print') meta.kind = v.kind;
  return meta;
}

/** Writes `meta.json` atomically. Throws on failure. */
export function writeMeta(fs: HistoryFs, dir: string, meta: SessionMeta): void {
  atomicWriteFileSync(fs, path.join(dir, META_FILE), JSON.stringify(meta, null, 2) + '\n');
}

/** The first non-empty line of `text`, trimmed and cut to `max` characters. */
export function firstLine(text: string, max = 80): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  // Count code points so an emoji or CJK surrogate pair is never cut in half.
  const chars = [...line.trim()];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
}
