/**
 * How often each skill was offered and used, counted from the cycle ledgers of this folder's
 * sessions (nothing else keeps count): offered = requests that reached the model since the
 * skill was first seen here while it was in the catalogue; used = `skill("name")` calls plus
 * runs as `/name`.
 */
import path from 'node:path';
import { LEDGER_FILE, readRecords } from '../ledger/ledger.js';

export interface SkillUse {
  offered: number;
  used: number;
}

const CALL = /^skill\(\s*["']([a-z0-9-]+)["']/;

export function countSkillUse(
  sessionDirs: readonly string[],
  names: readonly string[],
  firstSeen: Readonly<Record<string, number>>,
  listed: ReadonlySet<string>,
): Map<string, SkillUse> {
  const out = new Map<string, SkillUse>(names.map((n) => [n, { offered: 0, used: 0 }]));
  for (const dir of sessionDirs) {
    for (const r of readRecords(path.join(dir, LEDGER_FILE))) {
      if ((r.tokensIn || 0) > 0) {
        for (const name of names) {
          const since = firstSeen[name];
          if (listed.has(name) && since !== undefined && r.at >= since) out.get(name)!.offered += 1;
        }
      }
      for (const call of r.tools ?? []) {
        const used = CALL.exec(call)?.[1];
        if (used && out.has(used)) out.get(used)!.used += 1;
      }
      for (const used of r.skills ?? []) if (out.has(used)) out.get(used)!.used += 1;
    }
  }
  return out;
}
