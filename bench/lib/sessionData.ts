/** Realistic conversations written to disk, for benchmarks that load big histories. */
import { makeMessage, type HistoryMessage } from '../../src/core/messages.js';
import { SessionStore } from '../../src/history/index.js';
import type { ToolLogEntry } from '../../src/api/events.js';

const FILLER =
  'The notes folder holds meeting minutes, a budget sheet and drafts of the quarterly report. ' +
  '会议记录和预算表都在这里，草稿还没有整理。 Several files mention the same supplier, and two of them ' +
  'disagree about the delivery date, which is worth raising with the user when they are back. ';

/** Message `i` of a made-up conversation: user, assistant (with a tool call), tool result. */
export function sampleMessage(i: number, at?: number): HistoryMessage {
  const extra = at === undefined ? {} : { at };
  switch (i % 3) {
    case 0:
      return makeMessage('user', `Please look at file${i}.txt and tell me what is in it.`, extra);
    case 1:
      return makeMessage(
        'assistant',
        `Reading it now. ${FILLER.slice(0, 120 + (i % 200))}\n[TOOL] read("file${i - 1}.txt") [/TOOL]`,
        extra,
      );
    default:
      return makeMessage(
        'tool',
        `read("file${i - 2}.txt") → 12 lines\n${FILLER.slice(0, 80 + (i % 150))}`,
        extra,
      );
  }
}

/** Creates a session under `dataDir` holding `count` messages; returns its id. */
export async function writeSession(dataDir: string, count: number): Promise<string> {
  const store = new SessionStore(dataDir);
  const session = await store.create();
  const t0 = Date.now() - count * 1000;
  for (let i = 0; i < count; i++) {
    const res = session.append(sampleMessage(i, t0 + i * 1000));
    if (!res.ok) throw new Error(`could not write the sample session: ${res.error.message}`);
  }
  session.close();
  return session.id;
}

/** A finished tool-log entry, as the tool runner reports it. */
export function sampleToolEntry(i: number): ToolLogEntry {
  return {
    callId: `bench-${i}`,
    turnId: Math.floor(i / 3),
    name: 'read',
    args: [`file${i}.txt`],
    call: `read("file${i}.txt")`,
    status: i % 17 === 0 ? 'error' : 'ok',
    summary: i % 17 === 0 ? 'not found' : `${12 + (i % 40)} lines`,
    full: FILLER,
    durationMs: 1 + (i % 9),
    startedAt: Date.now() - (5000 - i) * 1000,
  };
}
