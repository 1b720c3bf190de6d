import type { UnfinishedAnswer } from '../history/answerLog.js';
import { localTime } from './activityText.js';

/**
 * What the user is told at start about an approval answer the last run acknowledged and whose
 * call never ended (it was killed). The call is not run again: a tool run twice can do harm
 * that one left unfinished does not; the model can ask again if it is still needed.
 */
export function unfinishedAnswerNotice(u: UnfinishedAnswer, now: number = Date.now()): string {
  const when = localTime(u.at, now);
  if (u.answer === 'no')
    return `You denied ${u.call} at ${when}; the agent stopped before it was told, and the call did not run.`;
  return (
    `You approved ${u.call} at ${when} (answer: ${u.answer}), and the agent stopped before that ` +
    `call finished. It was not run again: check what it did, and ask for it again if it is ` +
    `still needed (half-made file changes are in the crash record).`
  );
}
