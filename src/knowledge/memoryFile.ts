/**
 * The folder memory on disk: one Markdown file per workspace in the app home
 * (`data/memory/<hash of the folder>.md`, keyed like the reminders), one fact a line:
 * `- 2026-12-05 · user turn · Summaries go in notes/`. The user may edit it by hand: any
 * line that is not the heading, the comment or blank is an entry, whatever its shape, so a
 * hand-written line is kept rather than dropped.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';

/** Where an entry came from (the middle field of its line). */
export type MemorySource = 'user turn' | 'autonomous' | 'compaction' | 'edited';

/** One remembered fact. `date` is `YYYY-MM-DD` (empty for a hand-written line without one). */
export interface MemoryEntry {
  date: string;
  source: string;
  text: string;
}

/** Caps: the prompt carries the whole memory, so it must stay small. */
export const MEMORY_LIMITS = {
  /** Entries in the memory (applied facts). */
  maxEntries: 50,
  /** Bytes of the entries' lines together (UTF-8). */
  maxBytes: 8 * 1024,
  /** Characters of one fact. */
  maxFactChars: 300,
  /** Proposals waiting in the inbox. */
  maxInbox: 20,
} as const;

/** The three files of a folder's memory: the facts, the inbox, the undo log. */
export interface MemoryPaths {
  memory: string;
  inbox: string;
  undo: string;
}

/** The memory files of `workspace` inside the data folder `dataDir`. */
export function memoryPaths(dataDir: string, workspace: string): MemoryPaths {
  const key = createHash('sha256').update(workspace).digest('hex').slice(0, 16);
  const base = path.join(dataDir, 'memory', key);
  return { memory: `${base}.md`, inbox: `${base}.inbox.md`, undo: `${base}.undo.json` };
}

const COMMENT =
  '<!-- One fact a line: "- date · source · fact". Edit freely; Cogito reads it at the start of each session. -->';
const SEP = ' · ';
// \u00B7 is the middle dot · between the fields (escaped: the bundle stays ASCII).
const LINE = /^- (\d{4}-\d{2}-\d{2}) \u00B7 ([^\u00B7]+?) \u00B7 (.*)$/;

/** The entries of a memory (or inbox) file's text. */
export function parseMemory(text: string): MemoryEntry[] {
  const out: MemoryEntry[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('# ') || line.startsWith('<!--')) continue;
    const m = LINE.exec(line);
    if (m) out.push({ date: m[1]!, source: m[2]!.trim(), text: m[3]!.trim() });
    else out.push({ date: '', source: 'edited', text: line.replace(/^[-*]\s+/, '') });
  }
  return out.filter((e) => e.text !== '');
}

/** One entry as its line. */
export function entryLine(e: MemoryEntry): string {
  return e.date === '' ? `- ${e.text}` : `- ${e.date}${SEP}${e.source}${SEP}${e.text}`;
}

/** A whole file's text: a heading naming the folder, the comment, the entries. */
export function formatMemory(title: string, entries: readonly MemoryEntry[]): string {
  return [`# ${title}`, COMMENT, '', ...entries.map(entryLine), ''].join('\n');
}

/** The bytes the entries take in the prompt (their lines). */
export function entriesBytes(entries: readonly MemoryEntry[]): number {
  return entries.reduce((n, e) => n + Buffer.byteLength(entryLine(e), 'utf8') + 1, 0);
}

/** `YYYY-MM-DD` of `now`, in local time (the user's day). */
export function localDate(now: number): string {
  const d = new Date(now);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
