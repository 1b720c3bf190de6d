/** What the fault suite records per fault, and the checks every fault shares. */
import path from 'node:path';
import type { AgentEvent } from '../../src/api/events.js';
import type { HistoryMessage } from '../../src/core/messages.js';
import { SessionStore } from '../../src/history/index.js';
import type { BenchHome } from './appEnv.js';

export interface FaultRow {
  fault: string;
  survived: boolean;
  /** false, or what was lost. */
  dataLost: false | string;
  /** From the fault's onset to the error being reported (ms). */
  detectMs: number | null;
  /** From the error being reported to working again (ms); null when it cannot recover by itself. */
  recoverMs: number | null;
  /** What the user is shown. */
  message: string;
  detail: string;
}

/** A turn that ended well. */
export const isOkEnd = (e: AgentEvent): boolean => e.type === 'turn_end' && e.outcome === 'ok';
/** An error the user is shown. */
export const isError = (e: AgentEvent): boolean => e.type === 'error';

/** Every message the agent holds in memory is in the session file on disk. */
export async function lostFromDisk(
  home: BenchHome,
  inMemory: readonly HistoryMessage[],
): Promise<false | string> {
  const session = await new SessionStore(path.join(home.home, 'data')).openLatestOrCreate();
  const onDisk = new Set(session.messages().map((m) => m.id));
  session.close();
  const missing = inMemory.filter((m) => !onDisk.has(m.id));
  return missing.length === 0 ? false : `${missing.length} message(s) not on disk`;
}
