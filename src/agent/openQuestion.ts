import type { OpenQuestionFacts } from '../api/activity.js';
import type { Timers } from '../scheduler/scheduler.js';
import { addChange, emptyChanges, type WorkspaceChanges } from '../watch/changes.js';

/** The longest question text kept (the status line and the digest show its start). */
const TEXT_CHARS = 300;

/** What a question's answer turn is told: the question, and what arrived while it was open. */
export interface AnsweredQuestion {
  question: OpenQuestionFacts;
  /** Every workspace change since it was asked (looks in between have seen some of them). */
  arrived: WorkspaceChanges;
  /** Autonomous looks that ran while it was open. */
  looks: number;
}

/**
 * The question the agent asked with `[WAIT]`, open until the user answers it (their next
 * message) or lets it go (an empty Enter, resume). One asked in an autonomous turn does not end
 * the watch forever: once it has waited `watch.resumeAfterWaitMs`, workspace changes may wake
 * a look again (`watching`), the question staying open; one that answered the user's own
 * message waits for the user alone. A timer calls `onWatch` when the wait is over, so changes
 * that arrived meanwhile are looked at then.
 */
export class OpenQuestion {
  private open: (OpenQuestionFacts & { autonomous: boolean }) | undefined;
  private arrived: WorkspaceChanges = emptyChanges();
  private looks = 0;
  private timer: unknown;
  private listener: (() => void) | undefined;

  constructor(
    /** watch.resumeAfterWaitMs (0: an autonomous question never resumes the watch). */
    private readonly resumeAfterMs: () => number,
    private readonly timers: Timers,
  ) {}

  /** Called when an autonomous question has waited long enough for changes to wake a look. */
  onWatch(listener: () => void): void {
    this.listener = listener;
  }

  /**
   * A reply ended with `[WAIT]`. A question already open keeps the time it was first asked (the
   * user has been waited for since then) and takes the newer words.
   */
  asked(reply: string, autonomous: boolean): void {
    const text = questionLine(reply);
    if (this.open) {
      const becomes = autonomous && !this.open.autonomous;
      this.open = { ...this.open, text, autonomous: this.open.autonomous || autonomous };
      // Asked again in a look of its own (a reminder's): from now on it may watch too.
      if (becomes) this.arm();
      return;
    }
    this.open = { text, at: this.timers.now(), autonomous };
    this.arrived = emptyChanges();
    this.looks = 0;
    this.arm();
  }

  /** The question the user has not answered, if any. */
  get facts(): OpenQuestionFacts | undefined {
    return this.open ? { text: this.open.text, at: this.open.at } : undefined;
  }

  /** From when changes wake a look (undefined: never, or no autonomous question is open). */
  get watchFrom(): number | undefined {
    const ms = this.resumeAfterMs();
    if (!this.open?.autonomous || ms <= 0) return undefined;
    return this.open.at + ms;
  }

  /** Whether changes may wake a look now, the question staying open. */
  watching(): boolean {
    const from = this.watchFrom;
    return from !== undefined && this.timers.now() >= from;
  }

  /** The workspace changed: the answer, when it comes, names what arrived since the question. */
  noteChanges(batch: WorkspaceChanges): void {
    if (!this.open) return;
    for (const p of batch.created) addChange(this.arrived, 'created', p);
    for (const p of batch.modified) addChange(this.arrived, 'modified', p);
    for (const p of batch.removed) addChange(this.arrived, 'removed', p);
  }

  /** An autonomous look ran while the question was open. */
  looked(): void {
    if (this.open) this.looks += 1;
  }

  /** The user answered (or let it go): the question closes; what its answer turn is told. */
  close(): AnsweredQuestion | undefined {
    const open = this.open;
    this.cancel();
    this.open = undefined;
    if (!open) return undefined;
    const answered = {
      question: { text: open.text, at: open.at },
      arrived: this.arrived,
      looks: this.looks,
    };
    this.arrived = emptyChanges();
    this.looks = 0;
    return answered;
  }

  /** The agent stops: no timer stays behind. */
  cancel(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    this.cancel();
    const from = this.watchFrom;
    if (from === undefined) return;
    this.timer = this.timers.setTimeout(
      () => {
        this.timer = undefined;
        this.listener?.();
      },
      Math.max(0, from - this.timers.now()),
    );
  }
}

/**
 * The question as one short line: the reply's last line of text (where a question usually
 * stands), without the marker.
 */
export function questionLine(reply: string): string {
  const body = reply.replace(/(\*\*)?\[WAIT\](\*\*)?\s*$/u, '');
  const line =
    body
      .split('\n')
      .findLast((l) => l.trim() !== '')
      ?.trim() ?? '';
  return line.length > TEXT_CHARS ? `${line.slice(0, TEXT_CHARS - 1)}…` : line;
}
