/**
 * crashKill: a busy background agent killed with SIGKILL at 50 random moments (5 with
 * --quick). Between the kills it streams slow replies from the scripted server, writes a
 * note and sets a reminder each turn, and `cogito send` messages keep arriving. After each
 * kill every state file must read as the kill left it; after the last start every message
 * `send` acknowledged must be in the history exactly once. The run itself is
 * bench/lib/crashKillRun.ts (test/durability/crashKill.test.ts runs it with 5 kills).
 */
import { runCrashKill } from './lib/crashKillRun.js';
import { mainFor, type Bench, type BenchResult } from './lib/report.js';

export const crashKill: Bench = {
  name: 'crashKill',
  async run({ quick }): Promise<BenchResult> {
    const kills = quick ? 5 : 50;
    const seed = 40;
    const f = await runCrashKill({
      kills,
      seed,
      log: (line) => process.stdout.write(`  ${line}\n`),
    });
    const zero = (name: string, n: number, target = '0') => ({
      name,
      value: String(n),
      raw: n,
      target,
      met: n === 0,
    });
    return {
      name: 'crashKill',
      title: `crash test (${kills} kills with SIGKILL)`,
      metrics: [
        { name: 'kills', value: String(f.kills), raw: f.kills },
        {
          name: 'messages acknowledged by cogito send',
          value: String(f.acknowledged),
          raw: f.acknowledged,
        },
        {
          name: 'sends refused (the agent was dying): not owed',
          value: String(f.refused),
          raw: f.refused,
        },
        zero('acknowledged messages lost', f.lost),
        zero('acknowledged messages duplicated in the history', f.duplicated),
        zero('state files unreadable as a kill left them', f.unreadableFiles),
        {
          name: 'JSONL files with a cut last line (repaired on load)',
          value: String(f.tornTails),
          raw: f.tornTails,
        },
        { name: 'chat requests made', value: String(f.requests), raw: f.requests },
      ],
      notes: [
        `Seed ${seed}: each kill comes up to 3 s after the first message of that run is acknowledged, with up to three cogito send processes in flight; the agent streams every reply at 15 ms per chunk and each user turn writes a note (create) and sets a reminder (remind) before its [WAIT].`,
        "A state file is every .json and .jsonl under the home's data/ (not the undo blobs, not copies kept aside as .corrupt-*): a .json must parse whole, a .jsonl every line but a last one the kill cut mid-write.",
        ...f.problems.slice(0, 20),
      ],
      details: { ...f, seed },
    };
  },
};

await mainFor(crashKill, import.meta.url);
