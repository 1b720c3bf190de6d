/**
 * `cogito send "text" [--steer] [--workspace DIR] [--wait [--timeout SECONDS]]`: a user message
 * for the folder's background agent, sent as the Agent API's `queue` command: the agent takes
 * it at its next turn boundary, the work in flight goes on (`--steer`: the `steer` command, read
 * at the next tool call as an amendment to the task in flight). Without `--wait` it exits 0 once the
 * agent has queued it. With `--wait` it prints the answer as `-p` does (stdout: the final
 * answer only); an approval waiting meanwhile is shown on stderr (answer it with `cogito
 * approve|deny`), and the wait ends at the timeout.
 */
import type { ApprovalRequest, AgentEvent } from '../api/events.js';
import { resolveLanguage, type Lang } from '../i18n/messages.js';
import { shownText } from '../protocol/replyParts.js';
import { stripTerminalControls } from '../safety/terminalFilter.js';
import { approvalCardText } from './approvalCard.js';
import type { DaemonCommand } from './commandArgs.js';
import { reachAgent } from './reachAgent.js';
import type { AgentConnection } from './socketClient.js';
import type { DaemonDeps } from './startCommand.js';
import { invokedAs } from '../core/invokedAs.js';

type SendCmd = Extract<DaemonCommand, { name: 'send' }>;

/** The `approval` request's reply: the card waiting, if any. */
export interface WaitingApproval {
  approval: ApprovalRequest | null;
}

export async function runSend(cmd: SendCmd, io: DaemonDeps): Promise<number> {
  const reached = await reachAgent(cmd, io, 'send');
  if (!reached.ok) return reached.code;
  const { connection, workspace, config } = reached;
  try {
    if (cmd.wait) {
      const lang = resolveLanguage(config.language, io.env);
      return await sendAndWait(connection, cmd, io, lang);
    }
    await connection.command({ type: cmd.steer ? 'steer' : 'queue', text: cmd.text });
    io.stdout.write(
      cmd.steer
        ? `Sent to the agent in ${workspace} (pid ${connection.pid}) to steer: it reads the message at its next tool call (at once if it is not working).\n`
        : `Queued for the agent in ${workspace} (pid ${connection.pid}): it takes the message at its next turn boundary.\n`,
    );
    return 0;
  } catch (err) {
    io.stderr.write(`cogito send: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    connection.close();
  }
}

/** Subscribes first (so nothing is missed), queues, and waits for the turn that took it. */
async function sendAndWait(
  connection: AgentConnection,
  cmd: SendCmd,
  io: DaemonDeps,
  lang: Lang,
): Promise<number> {
  const showCard = (request: ApprovalRequest): void =>
    void io.stderr.write(
      `${approvalCardText(request, lang)}The agent waits for this answer: ${invokedAs({ env: io.env })} approve, or ${invokedAs({ env: io.env })} deny.\n`,
    );
  const reader = createAnswerReader(cmd.text);
  let timer: NodeJS.Timeout | undefined;
  // Everything printed here comes from the model or the agent: through -p's terminal filter.
  const out = (text: string): void => void io.stdout.write(stripTerminalControls(text));
  const err = (text: string): void => void io.stderr.write(stripTerminalControls(text));
  /** A line from the agent was lost: the turn's end may have been in it. */
  let lost = false;
  const outcome = new Promise<number>((settle) => {
    let settled = false;
    // Only the first ending counts (closing the connection afterwards is not the agent stopping).
    const resolve = (code: number): void => {
      if (!settled) settle(code);
      settled = true;
    };
    const finish = (done: Answered): void => {
      if (settled) return;
      if (done.answer !== '') out(`${done.answer}\n`);
      if (done.problem) err(`cogito send: ${done.problem}\n`);
      resolve(done.problem ? 1 : 0);
    };
    /** After a lost line: ends with what was read, once the agent no longer works on it. */
    const endIfIdle = (state: string): void => {
      if (state === 'THINKING' || state === 'AWAITING_APPROVAL') return;
      const answer = reader.answerSoFar();
      finish(
        answer === ''
          ? {
              answer,
              problem: 'the reply was in a message that could not be read (see it with cogito)',
            }
          : { answer },
      );
    };
    connection.onEvent((event) => {
      const e = event as AgentEvent;
      if (e.type === 'approval_request') showCard(e.request);
      const done = reader.follow(e);
      if (done) finish(done);
      // Its own turn's end the reader sees; a lost line may have hidden which turn was its own.
      else if (lost && e.type === 'turn_end' && !reader.found()) endIfIdle('AWAITING_INPUT');
    });
    connection.onProblem((problem) => {
      err(`cogito send: ${problem}; reading the agent's state again\n`);
      lost = true;
      void connection.request('status').then(
        (s) => endIfIdle(String((s as { state?: unknown }).state)),
        () => undefined,
      );
    });
    connection.onClose(() => {
      if (!settled) err('cogito send: the agent stopped before it answered\n');
      resolve(1);
    });
    timer = setTimeout(() => {
      if (settled) return;
      err(
        `cogito send: no answer within ${cmd.timeoutMs / 1000} s (the message stays with the agent; raise --timeout to wait longer)\n`,
      );
      resolve(1);
    }, cmd.timeoutMs);
  });
  try {
    await connection.request('subscribe');
    // An approval asked before we listened holds up the message too: show it.
    const { approval } = (await connection.request('approval')) as WaitingApproval;
    if (approval) showCard(approval);
    await connection.command({ type: cmd.steer ? 'steer' : 'queue', text: cmd.text });
    return await outcome;
  } finally {
    clearTimeout(timer);
  }
}

/** How the turn that took the message ended: its answer, and what went wrong, if anything. */
interface Answered {
  answer: string;
  problem?: string;
}

/**
 * Reads the agent's events for the answer to `text`: the turn whose user message is `text`
 * took it; the answer is that turn's last reply that called no tools (as `-p` prints it:
 * shown text, without `[WAIT]`), given when the turn ends.
 */
export function createAnswerReader(text: string): {
  follow(e: AgentEvent): Answered | undefined;
  /** The answer read so far (after a lost line, when the turn's end may never be seen). */
  answerSoFar(): string;
  /** Whether the turn that took the message was seen. */
  found(): boolean;
} {
  let turn: number | undefined;
  let mine: number | undefined;
  let answer = '';
  return {
    answerSoFar: () => answer,
    found: () => mine !== undefined,
    follow(e) {
      if (e.type === 'turn_start') turn = e.turnId;
      if (e.type === 'message_added' && mine === undefined) {
        if (e.message.role === 'user' && e.message.content === text) mine = turn;
        return undefined;
      }
      if (mine === undefined || turn !== mine) return undefined;
      if (e.type === 'message_added' && e.message.role === 'assistant' && e.message.parts) {
        const calls = e.message.parts.items.some((p) => p.type === 'call');
        if (!calls) answer = shownText(e.message.parts);
      }
      if (e.type !== 'turn_end' || e.turnId !== mine) return undefined;
      if (e.outcome === 'error')
        return {
          answer,
          problem: `the turn that took it failed (see ${invokedAs()} status and the log)`,
        };
      if (e.outcome === 'aborted')
        return { answer, problem: 'the turn that took it was interrupted' };
      if (answer === '')
        return { answer, problem: 'the turn ended without a reply that called no tools' };
      return { answer };
    },
  };
}
