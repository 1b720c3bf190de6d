import { makeMessage, type HistoryMessage } from '../core/messages.js';
import type { AgentEvent } from '../api/events.js';
import { shownOf, skippedEntry, type CallOutcome } from './toolRunner.js';
import { callTextOf, resultHeadOf } from '../protocol/callText.js';
import type { CallItem, ParsedReply } from '../protocol/parser.js';
import { callIdOf, partsOf } from '../protocol/replyParts.js';
import { resultMessage } from '../protocol/resultMessage.js';
import { autonomous, type TurnTrigger } from '../api/trace.js';

/** How the pipeline persists; `append` never throws and reports write failures. */
export interface TurnHistory {
  messages(): readonly HistoryMessage[];
  append(message: HistoryMessage): { ok: true } | { ok: false; error: { message: string } };
}

/** The reply as the turn produced it, for the final save. */
export interface ReplyToSave {
  reply: string;
  /** How the turn read the reply: kept on the message as its parts. */
  parsed: ParsedReply;
  reasoning: string;
  trigger: TurnTrigger;
  cycle: number;
  /** The user stopped it (marked interrupted) or a failure cut it short (marked failed). */
  interrupted: boolean;
  failed: boolean;
}

/**
 * Every message of a turn is written here, in history order, and shown as it is written
 * (a turn of several steps writes each step's reply and results in turn):
 * the user's messages (RESTORE, before the request is built, so a crash keeps them), the
 * reply ahead of its tools and each result as its call finishes (RUN: the crash record), and
 * the reply or the results an interrupt kept from running (SAVE).
 */
export class TurnSaver {
  /** The reply's id once it is saved ahead of its tools. */
  private replyId: string | undefined;
  /** Indices of the calls whose results are saved. */
  private readonly results = new Set<number>();
  /** Why the last failed write failed: the agent pauses on it. */
  failed: string | undefined;

  constructor(
    private readonly history: TurnHistory,
    private readonly emit: (event: AgentEvent) => void,
    /** The turn's id, for the tool log's entries of calls that never ran. */
    private readonly turnId = 0,
    /** The other state files' failed writes (the reminders…), taken once per step. */
    private readonly others?: { take(): string | undefined },
  ) {}

  /** What the step could not save, as RESPOND's facts: the history, another state file. */
  failures(): { saveFailed?: string; stateFailed?: string } {
    const other = this.others?.take();
    return {
      ...(this.failed ? { saveFailed: this.failed } : {}),
      ...(other === undefined ? {} : { stateFailed: other }),
    };
  }

  /**
   * The user's messages (with the ids the input queue gave them); a write failure is reported
   * at once (the turn still answers them).
   */
  userMessages(texts: readonly string[], ids: readonly string[] = []): void {
    for (const [i, text] of texts.entries()) {
      // The id the inbox knows it by: after a kill, a message in the history is not redelivered.
      const made = makeMessage('user', text);
      const message = ids[i] !== undefined ? { ...made, id: ids[i] } : made;
      const res = this.history.append(message);
      this.emit({ type: 'message_added', message });
      if (!res.ok) {
        this.emit({ type: 'error', error: { kind: 'history_write', message: res.error.message } });
      }
    }
  }

  /**
   * The crash record's first half: the reply, with the number of its calls, is saved before
   * its first tool runs. Returns its id, which the change journal groups the calls' changes by.
   */
  replyAhead(reply: string, reasoning: string, parsed: ParsedReply): string {
    const made = makeMessage('assistant', reply, {
      ...(reasoning ? { reasoning } : {}),
      calls: parsed.items.length,
    });
    const assistant = { ...made, parts: partsOf(made.id, reply, parsed) };
    this.persist(assistant);
    this.replyId = assistant.id;
    return assistant.id;
  }

  /** The turn's next step: its reply and results are new ones. */
  nextStep(): void {
    this.replyId = undefined;
    this.results.clear();
  }

  /** Whether the reply went ahead of its tools (then SAVE only completes its results). */
  get replySaved(): boolean {
    return this.replyId !== undefined;
  }

  /** The second half: each result is saved as its call finishes, with the call's index. */
  result(index: number, outcome: CallOutcome, through = index): void {
    for (let i = index; i <= through; i++) this.results.add(i);
    const callId = this.replyId !== undefined ? callIdOf(this.replyId, index) : undefined;
    this.persist(resultMessage(outcome, index, callId));
  }

  /**
   * Calls the interrupt kept from running still get a result, so the record is complete and
   * the next start does not mistake them for calls a crash cut off.
   */
  notRunResults(items: readonly CallItem[]): void {
    for (const [index, item] of items.entries()) {
      if (this.results.has(index)) continue;
      const body = 'aborted: not run, the turn was interrupted before this call';
      const callId = callIdOf(this.replyId ?? '', index);
      const args = item.type === 'call' ? item.args : [];
      // The tool log shows it as skipped, live as after a restart.
      const entry = { ...skippedEntry(callId, this.turnId, callTextOf(item), args), summary: body };
      const outcome = { call: resultHeadOf(item), ok: false, body, truncatedChars: 0 };
      this.result(index, { ...outcome, shown: shownOf(entry) });
      this.emit({ type: 'tool_end', entry });
    }
  }

  /**
   * A reply not saved ahead of its tools (one without calls, or one cut short before they
   * ran), saved whole at its step's SAVE.
   */
  reply(r: ReplyToSave): void {
    const made = makeMessage('assistant', r.reply, {
      ...(r.reasoning ? { reasoning: r.reasoning } : {}),
      ...(r.interrupted ? { interrupted: true } : {}),
      ...(r.failed ? { failed: true } : {}),
      ...(autonomous(r.trigger) ? { cycle: r.cycle } : {}),
    });
    this.persist({ ...made, parts: partsOf(made.id, r.reply, r.parsed) });
  }

  private persist(message: HistoryMessage): void {
    const res = this.history.append(message);
    // The message is still shown and kept in memory; the agent pauses on a write failure.
    if (!res.ok) this.failed = res.error.message;
    this.emit({ type: 'message_added', message });
  }
}
