/**
 * The next start after a crash finishes the record: half-made changes are rolled back from
 * the journal, and every call of the last reply whose result never reached the history gets
 * one now, saying what happened, so the model (and the user) see the truth.
 */
import { resultHeadOf } from '../protocol/callText.js';
import { callItemOf, callsOf, withParts } from '../protocol/replyParts.js';
import { resultMessage } from '../protocol/resultMessage.js';
import type { Workspace } from '../tools/workspace.js';
import type { TurnHistory } from '../pipeline/saver.js';
import type { Journal } from './journal.js';
import { rollBackUnfinished } from './rollback.js';

/** What the recovery did, for a notice at start. */
export interface RecoveryReport {
  /** Results written for calls a crash cut off. */
  results: number;
  /** Half-made changes undone. */
  rolledBack: number;
  /** Journal lines skipped and paths refused, each naming what and why. */
  refused?: string[];
}

/** Finishes the crash record of a session; a clean session is left as it is. */
export async function finishCrashRecord(
  /** Where the recovered results are written: the session, as the turn pipeline sees it. */
  history: TurnHistory,
  journal: Journal | undefined,
  workspace: Workspace,
): Promise<RecoveryReport> {
  const rollback = journal ? await rollBackUnfinished(journal, workspace) : undefined;
  const rolled = rollback?.rolled ?? new Set<string>();
  const refused = rollback?.refused ?? [];
  const messages = history.messages();
  let at = messages.length - 1;
  while (at >= 0 && messages[at]!.role === 'tool') at--;
  const reply = messages[at];
  if (!reply || reply.role !== 'assistant' || reply.calls === undefined) {
    return { results: 0, rolledBack: rolled.size, refused };
  }
  const have = new Set(messages.slice(at + 1).map((m) => m.callIndex));
  // The reply's parts say what it called (the turn and the load give every reply its parts;
  // withParts reads only one built without them).
  const calls = callsOf(withParts(reply).parts!);
  let results = 0;
  for (const item of calls) {
    const index = item.index;
    if (have.has(index)) continue;
    const change = journal
      ?.entries()
      .find((e) => (e.reply ?? e.turn) === reply.id && e.callIndex === index);
    let body: string;
    let ok = false;
    if (change?.state === 'done') {
      ok = true;
      body = `${item.name ?? 'the call'} finished, but Cogito was stopped by a crash before its result was saved. Its change was kept; /changes lists it.`;
    } else if (change && rolled.has(change.id)) {
      body =
        'interrupted by a crash while it ran; the half-made change was undone, so nothing changed. Run it again if it is still needed.';
    } else {
      body =
        'interrupted by a crash before its result came back. Check its effect before running it again.';
    }
    history.append(
      resultMessage({ call: resultHeadOf(callItemOf(item)), ok, body }, index, item.id),
    );
    results += 1;
  }
  return { results, rolledBack: rolled.size, refused };
}
