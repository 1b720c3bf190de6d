/**
 * A folder's memory: the facts the agent keeps between sessions of one workspace, the inbox of
 * changes the user has not seen yet, and the undo log of every change applied.
 *
 * The rules, in one place:
 * - A fact remembered during the user's own turn is applied at once (the user is there and
 *   sees the call). One from an autonomous turn, or from the pre-compaction flush, waits in
 *   the inbox until the user accepts it with `/memory accept N`.
 * - The prompt carries a snapshot taken at the start of the session (and retaken after a
 *   compaction, which rewrites the request's start anyway): the system prompt stays
 *   byte-identical between turns, so the prompt cache keeps hitting. A fact remembered
 *   mid-session reaches the model in the tool result at once, and the prompt next time.
 * - A tidy (merge or drop entries: `tidy`) follows the same rule; in the inbox it names the
 *   entries by their text (memoryProposals.ts), so an accept after a hand edit never drops
 *   the wrong one. An idle cycle is asked to tidy near the caps (`tidyNudge`).
 * - Every applied change (remember, tidy, forget, accept, an edit through `/memory edit`)
 *   is one entry of the undo log; `/undo` takes back the newest one when it is newer than
 *   the last file change. A change is undone only when the files still hold what it wrote
 *   (a hand edit since is never overwritten).
 * - Caps: entries, bytes and one fact's length (MEMORY_LIMITS); a secret is never stored.
 *
 * Every operation reads the files again first, so a hand edit or another Cogito's change
 * (a `-p` run beside the screen) is never lost by writing an old copy back.
 */
import path from 'node:path';
import { atomicWriteFileSync, realFs, type HistoryFs } from '../core/fsPort.js';
import { NOT_UTF8, readStateText, setAside } from '../core/stateFile.js';
import { readJsonLines } from '../core/jsonLines.js';
import {
  MEMORY_LIMITS,
  entriesBytes,
  formatMemory,
  localDate,
  memoryPaths,
  parseMemory,
  type MemoryEntry,
  type MemoryPaths,
  type MemorySource,
} from './memoryFile.js';
import {
  applyTidy,
  describeProposal,
  findEntry,
  proposalEntry,
  proposalOf,
  sameText,
  tidyWhat,
  type Proposal,
  type TidyProposal,
} from './memoryProposals.js';
import { secretIn } from './secretCheck.js';

/** One applied change, as the undo log keeps it: both files' entries before and after. */
interface UndoRecord {
  at: number;
  what: string;
  memory: { before: MemoryEntry[]; after: MemoryEntry[] };
  inbox?: { before: MemoryEntry[]; after: MemoryEntry[] };
}

/** What `remember` did with a fact. */
export type RememberOutcome =
  | { kind: 'applied'; entry: MemoryEntry; count: number }
  | { kind: 'inbox'; entry: MemoryEntry; count: number }
  | { kind: 'refused'; message: string };

/** What a tidy (merge or drop) did. */
export type TidyOutcome =
  { kind: 'applied' | 'inbox'; what: string; count: number } | { kind: 'refused'; message: string };

/** The share of a cap past which an idle cycle is asked to tidy. */
const TIDY_AT = 0.8;

/** The undo log's length: older changes can no longer be undone. */
const MAX_UNDO = 30;

export interface FolderMemoryDeps {
  dataDir: string;
  workspace: string;
  fs?: HistoryFs;
  now?: () => number;
  /** A problem with the files (damaged, unwritable), for the user. */
  warn?: (message: string) => void;
}

/** The memory of one workspace folder (see the file comment for the rules). */
export class FolderMemory {
  readonly paths: MemoryPaths;
  private readonly fs: HistoryFs;
  private readonly now: () => number;
  private readonly warn: (message: string) => void;
  private readonly title: string;
  /** Files found damaged that could not be kept aside: never written over this run. */
  private readonly frozen = new Set<string>();
  private snap = '';
  /** The entries as the prompt's snapshot numbers them (what the model's numbers mean). */
  private snapEntries: MemoryEntry[] = [];

  constructor(deps: FolderMemoryDeps) {
    this.paths = memoryPaths(deps.dataDir, deps.workspace);
    this.fs = deps.fs ?? realFs;
    this.now = deps.now ?? Date.now;
    this.warn = deps.warn ?? (() => undefined);
    this.title = `Cogito memory for ${deps.workspace}`;
    this.refresh();
  }

  /** The facts, as the file holds them now. */
  entries(): MemoryEntry[] {
    return this.readEntries(this.paths.memory);
  }

  /** The proposals waiting for the user. */
  inbox(): MemoryEntry[] {
    return this.readEntries(this.paths.inbox);
  }

  /** The inbox read as proposals: facts to add, entries to merge or drop. */
  proposals(): Proposal[] {
    return this.inbox().map(proposalOf);
  }

  /** The prompt's memory section as the session started (empty when there is nothing). */
  promptSection(): string {
    return this.snap;
  }

  /** Takes the snapshot again: a new session, or after a compaction. */
  refresh(): void {
    this.snapEntries = this.entries();
    this.snap = memorySection(this.snapEntries);
  }

  /**
   * Keeps `fact`: applied when `apply` (the user's turn), else proposed in the inbox.
   * Refused, with the reason and the fix, when it is empty, too long, a secret, already
   * kept, or the memory (or inbox) is full.
   */
  remember(
    fact: string,
    opts: { apply: boolean; source: MemorySource; redact?: (text: string) => string },
  ): RememberOutcome {
    const text = fact.replace(/\s+/g, ' ').trim();
    const refused = this.check(text, opts.redact);
    if (refused !== undefined) return { kind: 'refused', message: refused };
    const entry: MemoryEntry = { date: localDate(this.now()), source: opts.source, text };
    const memory = this.entries();
    const inbox = this.inbox();
    const same = (e: MemoryEntry): boolean => e.text.toLowerCase() === text.toLowerCase();
    if (memory.some(same)) return { kind: 'refused', message: `Already remembered: ${text}` };
    if (!opts.apply) {
      if (inbox.some(same)) return { kind: 'refused', message: `Already proposed: ${text}` };
      if (inbox.length >= MEMORY_LIMITS.maxInbox) return { kind: 'refused', message: inboxFull() };
      this.write(this.paths.inbox, [...inbox, entry]);
      return { kind: 'inbox', entry, count: inbox.length + 1 };
    }
    const full = this.fullFor(memory, entry);
    if (full !== undefined) return { kind: 'refused', message: full };
    this.apply(`remembered "${text}"`, [...memory, entry]);
    return { kind: 'applied', entry, count: memory.length + 1 };
  }

  /**
   * Tidies the memory: the entries numbered `replaces` in the prompt's list are merged into
   * `text`, or dropped without it. Applied when `apply` (the user's turn), else proposed in
   * the inbox, naming the entries by their text. Refused when a number is not in the list,
   * an entry is gone since the session started, or the new text is refused like a fact.
   */
  tidy(
    req: { replaces: number[]; text?: string; reason?: string },
    opts: { apply: boolean; source: MemorySource; redact?: (text: string) => string },
  ): TidyOutcome {
    const listed = this.snapEntries;
    const bad = req.replaces.find((n) => listed[n - 1] === undefined);
    if (bad !== undefined)
      return {
        kind: 'refused',
        message:
          listed.length === 0
            ? 'The memory list in your instructions is empty: there is nothing to merge or drop.'
            : `There is no entry ${bad} in the memory list of your instructions (1 to ${listed.length}).`,
      };
    const text = req.text?.replace(/\s+/g, ' ').trim();
    if (text) {
      const refused = this.check(text, opts.redact);
      if (refused !== undefined) return { kind: 'refused', message: refused };
    }
    const reason = req.reason?.replace(/\s+/g, ' ').trim();
    const p: TidyProposal = {
      kind: 'tidy',
      date: localDate(this.now()),
      source: opts.source,
      replaces: req.replaces.map((n) => listed[n - 1]!.text),
      ...(text ? { text } : {}),
      ...(reason ? { reason } : {}),
    };
    const memory = this.entries();
    if (text && findEntry(memory, text) >= 0 && !p.replaces.some((t) => sameText(t, text)))
      return { kind: 'refused', message: `Already remembered: ${text}` };
    const applied = applyTidy(memory, p, this.now());
    if ('problem' in applied) return { kind: 'refused', message: applied.problem };
    if (!opts.apply) {
      const inbox = this.inbox();
      const entry = proposalEntry(p);
      if (inbox.some((e) => e.text === entry.text))
        return { kind: 'refused', message: 'Already proposed.' };
      if (inbox.length >= MEMORY_LIMITS.maxInbox) return { kind: 'refused', message: inboxFull() };
      this.write(this.paths.inbox, [...inbox, entry]);
      return { kind: 'inbox', what: describeProposal(p, memory), count: inbox.length + 1 };
    }
    this.apply(tidyWhat(p), applied.memory);
    return { kind: 'applied', what: tidyWhat(p), count: applied.memory.length };
  }

  /**
   * The line an idle cycle's note adds when the memory is near a cap (and no tidy waits for
   * the user already): undefined otherwise.
   */
  tidyNudge(): string | undefined {
    const memory = this.entries();
    const bytes = entriesBytes(memory);
    const near =
      memory.length >= MEMORY_LIMITS.maxEntries * TIDY_AT ||
      bytes >= MEMORY_LIMITS.maxBytes * TIDY_AT;
    if (!near || this.proposals().some((p) => p.kind === 'tidy')) return undefined;
    return `The folder memory is near its caps (${memory.length} of ${MEMORY_LIMITS.maxEntries} entries, ${bytes} of ${MEMORY_LIMITS.maxBytes} bytes): if entries are stale or repeat each other, propose merging or dropping them with remember (the user approves).`;
  }

  /** `/memory forget N`: removes fact N (1-based); the message for the user. */
  forget(n: number): string {
    const memory = this.entries();
    const gone = memory[n - 1];
    if (gone === undefined) return outOfRange(n, memory.length, 'memory', '/memory');
    this.apply(
      `forgot "${gone.text}"`,
      memory.filter((_, i) => i !== n - 1),
    );
    return `Forgotten: ${gone.text} (/undo takes it back).`;
  }

  /**
   * `/memory accept N|all`: applies proposals, within the caps, as one change for /undo. A
   * tidy whose entries are gone is not applied (and stays, with the reason); for one
   * proposal that means nothing changes.
   */
  accept(which: number | 'all'): string {
    const inbox = this.inbox();
    const picked = which === 'all' ? inbox : [inbox[which - 1]].filter(isEntry);
    if (picked.length === 0)
      return which === 'all'
        ? 'The memory inbox is empty.'
        : outOfRange(which, inbox.length, 'inbox', '/memory');
    let memory = this.entries();
    const taken: MemoryEntry[] = [];
    const done: string[] = [];
    const notes: string[] = [];
    for (const e of picked) {
      const p = proposalOf(e);
      if (p.kind === 'tidy') {
        const applied = applyTidy(memory, p, this.now());
        if ('problem' in applied) {
          notes.push(applied.problem);
          continue;
        }
        memory = applied.memory;
        done.push(tidyWhat(p));
      } else {
        const full = this.fullFor(memory, e);
        if (full !== undefined) {
          notes.push(taken.length === 0 ? full : 'The rest stay in the inbox: the memory is full.');
          break;
        }
        memory = [...memory, { ...e, date: e.date || localDate(this.now()) }];
        done.push(e.text);
      }
      taken.push(e);
    }
    if (taken.length === 0) return notes.join(' ');
    const rest = inbox.filter((e) => !taken.includes(e));
    this.apply(`accepted ${taken.length} proposal(s)`, memory, rest);
    const note = notes.length > 0 ? ` ${notes.join(' ')}` : '';
    return `Accepted into memory: ${done.join('; ')}.${note}`;
  }

  /** `/memory reject N|all`: drops proposals (they were never applied: nothing to undo). */
  reject(which: number | 'all'): string {
    const inbox = this.inbox();
    if (which === 'all') {
      if (inbox.length === 0) return 'The memory inbox is empty.';
      this.write(this.paths.inbox, []);
      return `Rejected ${inbox.length} proposal(s).`;
    }
    const gone = inbox[which - 1];
    if (gone === undefined) return outOfRange(which, inbox.length, 'inbox', '/memory');
    this.write(
      this.paths.inbox,
      inbox.filter((_, i) => i !== which - 1),
    );
    const p = proposalOf(gone);
    return `Rejected: ${p.kind === 'add' ? gone.text : describeProposal(p, this.entries())}`;
  }

  /**
   * Before `/memory edit` opens the file: writes it (heading and comment, no facts) when it
   * does not exist yet, so the editor opens it in its format. Returns the facts as they are.
   */
  beforeEdit(): MemoryEntry[] {
    const entries = this.entries();
    if (readStateText(this.fs, this.paths.memory).kind === 'missing')
      this.write(this.paths.memory, entries);
    return entries;
  }

  /**
   * After the user edited the file by hand (`/memory edit`): the change goes on the undo
   * log like any other, and the message says what changed ("Memory: 5 entries (was 4)").
   */
  afterEdit(before: MemoryEntry[]): string {
    const after = this.entries();
    if (JSON.stringify(before) === JSON.stringify(after))
      return `Memory unchanged: ${entryCount(after.length)}.`;
    this.log({ at: this.now(), what: 'edited the memory file', memory: { before, after } });
    const bytes = entriesBytes(after);
    const over =
      after.length > MEMORY_LIMITS.maxEntries || bytes > MEMORY_LIMITS.maxBytes
        ? ` It is over the caps (${MEMORY_LIMITS.maxEntries} entries, ${MEMORY_LIMITS.maxBytes} bytes; now ${bytes} bytes): forget some with /memory forget N.`
        : '';
    return `Memory: ${entryCount(after.length)} (was ${before.length}); the model sees it from the next session on. /undo takes the edit back.${over}`;
  }

  /** When the newest change that can be undone was made, or undefined when there is none. */
  lastChangeAt(): number | undefined {
    return this.readLog().at(-1)?.at;
  }

  /** Takes back the newest applied change; the message for the user. */
  undo(): string {
    const log = this.readLog();
    const last = log.at(-1);
    if (last === undefined) return 'No memory change to undo.';
    const same = (a: MemoryEntry[], b: MemoryEntry[]): boolean =>
      JSON.stringify(a) === JSON.stringify(b);
    const changed =
      !same(this.entries(), last.memory.after) ||
      (last.inbox !== undefined && !same(this.inbox(), last.inbox.after));
    if (changed)
      return `Not undone: the memory was changed since "${last.what}" (by hand or by another Cogito). Fix it with /memory forget N, or edit ${this.paths.memory}.`;
    this.write(this.paths.memory, last.memory.before);
    if (last.inbox) this.write(this.paths.inbox, last.inbox.before);
    this.writeLog(log.slice(0, -1));
    return `Undone in memory: ${last.what}.`;
  }

  private check(text: string, redact?: (text: string) => string): string | undefined {
    if (text === '') return 'Nothing to remember: give the fact as one short sentence.';
    if (text.length > MEMORY_LIMITS.maxFactChars)
      return `That fact is ${text.length} characters; a memory entry holds at most ${MEMORY_LIMITS.maxFactChars}. Say it in one short sentence.`;
    const secret = secretIn(text, redact);
    if (secret !== undefined)
      return `Not remembered: it looks like it holds ${secret}. Secrets are never stored in memory; remember where the secret is kept instead (e.g. "the API key is in .env"), never its value.`;
    return undefined;
  }

  /** Why `entry` does not fit in `memory`, or undefined. */
  private fullFor(memory: readonly MemoryEntry[], entry: MemoryEntry): string | undefined {
    if (memory.length >= MEMORY_LIMITS.maxEntries)
      return `The memory is full (${MEMORY_LIMITS.maxEntries} entries). Forget some first: /memory lists them, /memory forget N removes one.`;
    const bytes = entriesBytes([...memory, entry]);
    if (bytes > MEMORY_LIMITS.maxBytes)
      return `The memory is full (${entriesBytes(memory)} of ${MEMORY_LIMITS.maxBytes} bytes). Forget some first: /memory lists them, /memory forget N removes one.`;
    return undefined;
  }

  /** Writes a change and records it for /undo. */
  private apply(what: string, memory: MemoryEntry[], inbox?: MemoryEntry[]): void {
    const record: UndoRecord = {
      at: this.now(),
      what,
      memory: { before: this.entries(), after: memory },
      ...(inbox !== undefined ? { inbox: { before: this.inbox(), after: inbox } } : {}),
    };
    this.write(this.paths.memory, memory);
    if (inbox !== undefined) this.write(this.paths.inbox, inbox);
    this.log(record);
  }

  private log(record: UndoRecord): void {
    this.writeLog([...this.readLog(), record].slice(-MAX_UNDO));
  }

  private readEntries(file: string): MemoryEntry[] {
    const read = readStateText(this.fs, file);
    if (read.kind === 'missing') return [];
    if (read.kind === 'text') return parseMemory(read.text);
    // Junk bytes damage the lines they are in: every other fact is kept. The original is
    // kept aside first, then the file is rewritten with what was read, so the next read is
    // clean (and makes no second copy).
    const salvaged = read.problem === NOT_UTF8 ? readableLines(this.fs, file) : [];
    if (this.damaged(file, read.problem)) this.write(file, salvaged);
    return salvaged;
  }

  private readLog(): UndoRecord[] {
    const read = readStateText(this.fs, this.paths.undo);
    if (read.kind === 'missing') return [];
    if (read.kind === 'text') {
      try {
        const list = JSON.parse(read.text) as unknown;
        if (Array.isArray(list) && list.every(isRecord)) return list;
      } catch {
        // damaged: below
      }
    }
    this.damaged(this.paths.undo, read.kind === 'text' ? 'not an undo log' : read.problem);
    return [];
  }

  private writeLog(log: UndoRecord[]): void {
    this.writeText(this.paths.undo, `${JSON.stringify(log)}\n`);
  }

  private write(file: string, entries: readonly MemoryEntry[]): void {
    const title =
      file === this.paths.inbox ? `${this.title} (inbox: not yet accepted)` : this.title;
    this.writeText(file, formatMemory(title, entries));
  }

  private writeText(file: string, text: string): void {
    if (this.frozen.has(file)) return;
    try {
      this.fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      atomicWriteFileSync(this.fs, file, text);
    } catch (err) {
      this.warn(`The memory file ${file} could not be written: ${(err as Error).message}.`);
    }
  }

  /**
   * A damaged file is kept aside once before anything new goes in its place; true when the
   * copy was made (the file may then be written over).
   */
  private damaged(file: string, problem: string): boolean {
    if (this.frozen.has(file)) return false;
    const kept = setAside(this.fs, file, this.now());
    if (kept.ok) {
      this.warn(`The memory file ${file} was damaged (${problem}); it was kept as ${kept.aside}.`);
      return true;
    } else {
      this.frozen.add(file);
      this.warn(
        `The memory file ${file} is damaged (${problem}) and no copy could be made (${kept.problem}): it is left as it is and not written this run.`,
      );
      return false;
    }
  }
}

/** The entries of the lines of `file` that are UTF-8 text (each line decoded on its own). */
function readableLines(fs: HistoryFs, file: string): MemoryEntry[] {
  const read = readJsonLines(fs, file);
  if (read.kind !== 'lines') return [];
  // A line that is not text reads as a marker starting with NUL: never a fact.
  return parseMemory(read.lines.filter((l) => !l.startsWith('\u0000')).join('\n'));
}

/** The system prompt's section for `entries` (empty when there are none). */
export function memorySection(entries: readonly MemoryEntry[]): string {
  if (entries.length === 0) return '';
  // Numbered: remember's `replaces` names entries by these numbers.
  const lines = entries.map((e, i) => `${i + 1}. ${e.date === '' ? '' : `${e.date}: `}${e.text}`);
  return `# Memory of this folder
Facts kept from earlier sessions in this workspace (the user sees and edits them with /memory). Follow them; if one looks wrong or stale, tell the user.
${lines.join('\n')}`;
}

function inboxFull(): string {
  return `The memory inbox is full (${MEMORY_LIMITS.maxInbox} proposals): the user must accept or reject some with /memory first.`;
}

function entryCount(n: number): string {
  return `${n} ${n === 1 ? 'entry' : 'entries'}`;
}

function outOfRange(n: number, count: number, what: string, cmd: string): string {
  if (count === 0) return `The ${what} is empty.`;
  return `There is no entry ${n} in the ${what} (1 to ${count}); ${cmd} lists them.`;
}

function isEntry(e: MemoryEntry | undefined): e is MemoryEntry {
  return e !== undefined;
}

function isRecord(r: unknown): r is UndoRecord {
  if (typeof r !== 'object' || r === null) return false;
  const x = r as Record<string, unknown>;
  return typeof x.at === 'number' && typeof x.what === 'string' && typeof x.memory === 'object';
}
