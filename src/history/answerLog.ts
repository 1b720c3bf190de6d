import { jsonObject } from '../core/jsonObject.js';
import path from 'node:path';
import { appendLineSync, keepAsideAndRewrite, readJsonLines } from '../core/jsonLines.js';
import { keepAside } from '../core/keepAside.js';
import { atomicWriteFileSync, errorCode, errorMessage, realFs } from '../core/fsPort.js';
import type { HistoryFs } from '../core/fsPort.js';
import type { AppendResult } from './appendResult.js';

/**
 * The session's approval answers: each answer the user gave to an approval card (from
 * `cogito approve|deny`, a screen's y/n, an attached screen) is appended with fsync to
 * `answers.jsonl` in the session folder BEFORE the answerer is told it was applied, and marked
 * done once the answered call has ended (its result saved). An answer left without its "done"
 * means the agent was killed while the call ran (or before it started): the next start tells
 * the user so and never runs the call again (a tool run twice is worse than one not finished).
 *
 * Lines: `{"t":"answer","id","call","answer","at"}` and `{"t":"done","id"}`. A line cut by a
 * kill mid-write was never acknowledged (its fsync had not returned) and is skipped.
 */
export const ANSWERS_FILE = 'answers.jsonl';

/** An answer the last run acknowledged whose call never ended. */
export interface UnfinishedAnswer {
  id: number;
  /** The call as the card showed it. */
  call: string;
  /** yes, always or no. */
  answer: string;
  at: number;
}

type Line =
  { t: 'answer'; id: number; call: string; answer: string; at: number } | { t: 'done'; id: number };

function parseLine(text: string): Line | undefined {
  const r = jsonObject(text);
  if (!r) return undefined;
  if (!Number.isInteger(r.id)) return undefined;
  const id = r.id as number;
  if (r.t === 'done') return { t: 'done', id };
  if (r.t === 'answer' && typeof r.call === 'string' && typeof r.answer === 'string')
    return {
      t: 'answer',
      id,
      call: r.call,
      answer: r.answer,
      at: typeof r.at === 'number' ? r.at : 0,
    };
  return undefined;
}

/** What the last run left: its unfinished answers, and any problem with the file. */
export interface LoadedAnswers {
  unfinished: UnfinishedAnswer[];
  warnings: string[];
}

/**
 * Reads `dir`'s answers: those without a "done". Then the file starts over empty (atomically),
 * so each unfinished answer is told once. A damaged file (bad lines other than a torn last
 * one, bytes that are not text, a folder in its place) is kept aside first, the warning
 * naming the copy; when no copy can be made it is left as it was.
 */
export function loadAnswers(
  dir: string,
  opts: { fs?: HistoryFs; now?: number } = {},
): LoadedAnswers {
  const fs = opts.fs ?? realFs;
  const now = opts.now ?? Date.now();
  const file = path.join(dir, ANSWERS_FILE);
  const read = readJsonLines(fs, file);
  if (read.kind === 'missing') return { unfinished: [], warnings: [] };
  if (read.kind === 'unreadable') {
    try {
      const aside = keepAside(fs, file, now);
      return {
        unfinished: [],
        warnings: [
          `The approval answers in ${file} could not be read (${read.problem}); the original was kept as ${aside}.`,
        ],
      };
    } catch (err) {
      const problem = `${read.problem}; ${errorMessage(err)}`;
      return { unfinished: [], warnings: [`The approval answers in ${file}: ${problem}.`] };
    }
  }
  const open = new Map<number, UnfinishedAnswer>();
  let bad = 0;
  for (const [i, raw] of read.lines.entries()) {
    const line = parseLine(raw);
    if (!line) {
      // A torn last line is a write a kill cut short: never acknowledged, not damage.
      if (!(read.torn && i === read.lines.length - 1)) bad += 1;
      continue;
    }
    if (line.t === 'done') open.delete(line.id);
    else open.set(line.id, { id: line.id, call: line.call, answer: line.answer, at: line.at });
  }
  const unfinished = [...open.values()];
  if (bad > 0) {
    const repair = keepAsideAndRewrite(fs, file, [], now);
    const warning = repair.ok
      ? `${bad} line(s) of the approval answers in ${file} did not read; the original was kept as ${repair.aside}.`
      : `The approval answers in ${file} are damaged (${bad} line(s)), and ${repair.problem}.`;
    return { unfinished, warnings: [warning] };
  }
  if (read.lines.length > 0) {
    try {
      atomicWriteFileSync(fs, file, '');
    } catch {
      // The old file stays: its answers are told again next start, never acted on.
    }
  }
  return { unfinished, warnings: [] };
}

/** The characters of a call kept with its answer. */
const CALL_KEPT = 2000;

/** Appends to the current session's answers file, each line on disk (fsync) before it returns. */
export class AnswerLog {
  constructor(
    /** The current session's folder, read at each write (it follows a switch). */
    private readonly dir: () => string,
    private readonly fs: HistoryFs = realFs,
  ) {}

  answered(a: { id: number; call: string; answer: string; at: number }): AppendResult {
    // Enough to name the call in a notice: a card may hold a whole file (megabytes).
    const call = a.call.length > CALL_KEPT ? `${a.call.slice(0, CALL_KEPT)}…` : a.call;
    return this.write({ t: 'answer', ...a, call });
  }

  done(id: number): AppendResult {
    return this.write({ t: 'done', id });
  }

  private write(line: Line): AppendResult {
    const file = path.join(this.dir(), ANSWERS_FILE);
    try {
      appendLineSync(this.fs, file, JSON.stringify(line));
      return { ok: true };
    } catch (err) {
      const code = errorCode(err) ?? 'EUNKNOWN';
      return {
        ok: false,
        error: { code, message: `${file} could not be written: ${errorMessage(err)}` },
      };
    }
  }
}
