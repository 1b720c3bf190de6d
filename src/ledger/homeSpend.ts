/**
 * The tokens every session of this home spent recently, read back from their ledgers. The
 * hourly and daily budgets start from it, so a restart, a crash loop or a cron job running
 * `cogito -p` every five minutes is held by the same budget as one long run.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { LEDGER_FILE, readRecords } from './ledger.js';

/** One turn's spending, as the budgets count it. */
export interface Spend {
  at: number;
  tokens: number;
}

/**
 * The spending since `since` (epoch ms) in `<sessionsDir>/<id>/ledger.jsonl`, oldest first.
 * A ledger last written before `since` is not read at all; a missing folder is no spending.
 */
export function recentSpend(sessionsDir: string, since: number): Spend[] {
  let ids: string[];
  try {
    ids = readdirSync(sessionsDir);
  } catch {
    return [];
  }
  const out: Spend[] = [];
  for (const id of ids) {
    const file = path.join(sessionsDir, id, LEDGER_FILE);
    try {
      if (statSync(file).mtimeMs < since) continue;
    } catch {
      continue;
    }
    for (const r of readRecords(file)) {
      const tokens = (r.tokensIn || 0) + (r.tokensOut || 0);
      if (r.at >= since && tokens > 0) out.push({ at: r.at, tokens });
    }
  }
  return out.sort((a, b) => a.at - b.at);
}
