import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { makeMessage } from '../core/messages.js';
import { withParts } from '../protocol/replyParts.js';
import type { HistoryMessage, Role } from '../core/messages.js';
import { atomicWriteFileSync, errorCode, errorMessage, realFs } from './fsPort.js';
import type { SessionStore } from './sessionStore.js';

/** Remembers which conversation file was imported, so it is imported only once. */
const IMPORT_MARKER = '.imported-conversation';

/**
 * The outcome of an import. `sessionId` is set when a session was created; `warnings` explain
 * anything skipped or refused (the source file is never changed or removed).
 */
interface ImportResult {
  imported: number;
  sessionId?: string;
  warnings: string[];
}

interface Marker {
  source: string;
  mtimeMs: number;
  size: number;
}

/**
 * Imports a CogitoAgent `data/conversation.json` (a JSON array of `{ role, content }`) into a new
 * session, once: a marker in the sessions folder holds the file's path, mtime and size, and the
 * same file is not imported again (a changed file is imported again, into another session).
 * Resolves to `undefined` when there is nothing to do (no file, already imported, empty list).
 * Invalid JSON or a wrong shape gives a warning, not an exception; the file is left in place.
 */
export async function importConversationJson(
  file: string,
  store: SessionStore,
): Promise<ImportResult | undefined> {
  const source = path.resolve(file);
  let stat: { mtimeMs: number; size: number };
  let text: string;
  try {
    stat = await fsp.stat(source);
    text = await fsp.readFile(source, 'utf8');
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return undefined;
    return refused(
      `Cannot read ${source} to import it: ${errorMessage(err)}. Check its permissions.`,
    );
  }
  const markerFile = path.join(store.sessionsDir, IMPORT_MARKER);
  const marker: Marker = { source, mtimeMs: stat.mtimeMs, size: stat.size };
  if (await alreadyImported(markerFile, marker)) return undefined;

  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return refused(
      `${source} is not valid JSON (${errorMessage(err)}), so the old conversation was not ` +
        `imported. Fix or remove the file; it was left unchanged.`,
    );
  }
  const list = Array.isArray(value) ? value : messagesField(value);
  if (list === undefined) {
    return refused(
      `${source} is not a list of {"role", "content"} messages, so it was not imported. ` +
        `It was left unchanged.`,
    );
  }
  const warnings: string[] = [];
  const messages = toMessages(list, stat.mtimeMs);
  const skipped = list.length - messages.length;
  if (skipped > 0) {
    warnings.push(
      `${skipped} of ${list.length} entries in ${source} were not {"role", "content"} messages ` +
        `with a known role and were skipped.`,
    );
  }
  if (messages.length === 0) {
    writeMarker(markerFile, marker, warnings);
    return warnings.length > 0 ? { imported: 0, warnings } : undefined;
  }

  const session = await store.create();
  let failed = false;
  for (const m of messages) {
    const result = session.append(m);
    if (!result.ok) failed = true;
  }
  if (!failed || session.flush().ok) {
    writeMarker(markerFile, marker, warnings);
  } else {
    warnings.push(
      `Only part of ${source} could be saved into session ${session.id}; it will be imported ` +
        `again next time.`,
    );
  }
  session.close();
  return { imported: messages.length, sessionId: session.id, warnings };
}

function refused(warning: string): ImportResult {
  return { imported: 0, warnings: [warning] };
}

/** Accepts `{ "messages": [...] }` too, a common variant. */
function messagesField(value: unknown): unknown[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const messages = (value as { messages?: unknown }).messages;
  return Array.isArray(messages) ? messages : undefined;
}

const ROLES: ReadonlySet<string> = new Set<Role>(['system', 'user', 'assistant', 'tool']);

/** Keeps the well-formed entries; OpenAI-style content parts are joined into their text. */
function toMessages(list: readonly unknown[], at: number): HistoryMessage[] {
  const out: HistoryMessage[] = [];
  for (const entry of list) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { role, content } = entry as { role?: unknown; content?: unknown };
    if (typeof role !== 'string' || !ROLES.has(role)) continue;
    const text = contentText(content);
    if (text === undefined) continue;
    // An imported reply is read once, here, like one loaded from an old session.
    out.push(withParts(makeMessage(role as Role, text, { at })));
  }
  return out;
}

function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts = content.flatMap((p: unknown) =>
    typeof p === 'object' && p !== null && typeof (p as { text?: unknown }).text === 'string'
      ? [(p as { text: string }).text]
      : [],
  );
  return parts.length > 0 ? parts.join('\n') : undefined;
}

async function alreadyImported(markerFile: string, current: Marker): Promise<boolean> {
  try {
    const m = JSON.parse(await fsp.readFile(markerFile, 'utf8')) as Partial<Marker>;
    // The path is informative only: the same file seen from a moved home is still the same file.
    return m.mtimeMs === current.mtimeMs && m.size === current.size;
  } catch {
    return false;
  }
}

function writeMarker(markerFile: string, marker: Marker, warnings: string[]): void {
  try {
    realFs.mkdirSync(path.dirname(markerFile), { recursive: true });
    atomicWriteFileSync(realFs, markerFile, JSON.stringify(marker) + '\n');
  } catch (err) {
    warnings.push(
      `Could not record the import in ${markerFile} (${errorMessage(err)}); the old ` +
        `conversation may be imported again next time.`,
    );
  }
}
