/**
 * `cogito approve|deny [--workspace DIR]`: answers the approval the folder's background agent
 * waits for, from a shell (so a notification can be acted on without opening the screen).
 * It shows the card the screen would show (the agent's `approval` request), then sends
 * `answer_approval`: approve → yes (`--always`: always for the rest of the run), deny → no.
 * Nothing waiting: says so, exit 1.
 */
import type { ApprovalAnswer } from '../api/events.js';
import { resolveLanguage } from '../i18n/messages.js';
import { approvalCardText } from './approvalCard.js';
import type { DaemonCommand } from './commandArgs.js';
import { reachAgent } from './reachAgent.js';
import type { DaemonDeps } from './startCommand.js';
import type { WaitingApproval } from './sendCommand.js';

type AnswerCmd = Extract<DaemonCommand, { name: 'approve' | 'deny' }>;

export async function runAnswer(cmd: AnswerCmd, io: DaemonDeps): Promise<number> {
  const reached = await reachAgent(cmd, io, cmd.name);
  if (!reached.ok) return reached.code;
  const { connection, workspace, config } = reached;
  try {
    // Only the card waiting, not the whole state: it arrives whatever else the agent holds.
    const { approval: request } = (await connection.request('approval')) as WaitingApproval;
    if (!request) {
      io.stderr.write(`cogito ${cmd.name}: no approval is waiting in ${workspace}.\n`);
      return 1;
    }
    const lang = resolveLanguage(config.language, io.env);
    io.stdout.write(approvalCardText(request, lang));
    const answer: ApprovalAnswer = cmd.name === 'deny' ? 'no' : cmd.always ? 'always' : 'yes';
    // Only the card shown is answered: one answered meanwhile (a screen) and replaced is not.
    await connection.command({ type: 'answer_approval', answer, id: request.id });
    io.stdout.write(`${DONE[answer]}\n`);
    return 0;
  } catch (err) {
    io.stderr.write(`cogito ${cmd.name}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    connection.close();
  }
}

const DONE: Record<ApprovalAnswer, string> = {
  yes: 'Approved: the call runs.',
  no: 'Denied: the call does not run; the agent is told so.',
  always: 'Approved, and calls of this kind run without asking for the rest of this run.',
};
