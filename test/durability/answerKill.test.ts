/**
 * The attack on an approval answer: a real background agent asks to run a slow command
 * (`run` asks by default); `cogito approve` exits 0, and at that moment the answer is on disk
 * in the session's answers.jsonl; the agent is killed with -9 while the command runs. The
 * next `cogito start` must tell the user the approved call did not finish and was not run
 * again, and must not run it again; a graceful stop and start afterwards says nothing more.
 * Runs the built program (bin/cogito.js): `npm run build` first.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAlive } from '../../src/core/processAlive.js';
import { backgroundFolder, type BackgroundFolder } from '../helpers/backgroundFolder.js';
import { waitUntil } from '../helpers/waitFor.js';

/** The session folders' answers.jsonl files that exist, with their text. */
function answerFiles(home: string): string[] {
  const sessions = path.join(home, 'data', 'sessions');
  return readdirSync(sessions)
    .map((id) => path.join(sessions, id, 'answers.jsonl'))
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file, 'utf8'));
}

/** Processes on this machine whose command line holds `marker` (the sandboxed shell). */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(marker)) found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

const readLog = (file: string): string => (existsSync(file) ? readFileSync(file, 'utf8') : '');

describe('an approval answer survives kill -9 of the background agent', () => {
  let f: BackgroundFolder;
  beforeEach(async () => {
    f = await backgroundFolder();
  });
  afterEach(async () => {
    await f.close();
  });

  it('is told once on the next start, and the approved call is never run again', async () => {
    const marker = 'sleep 97; touch ran.txt';
    const command = `echo started >> starts.txt; ${marker}`;
    f.server.push({ kind: 'stream', content: `Running it. [TOOL] run("${command}") [/TOOL]` });
    const agent = await f.startAgent();
    await waitUntil(
      async () => (await f.state()) === 'AWAITING_APPROVAL' || undefined,
      'the approval card',
      60_000,
    );

    const approved = await f.cogito(['approve']);
    expect(approved.code, approved.err).toBe(0);
    // Acknowledged, so on disk: the answer, the call it answers, and no "done" yet.
    const [kept] = answerFiles(f.home);
    const lines = (kept ?? '')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ t: 'answer', answer: 'yes' });
    expect(String(lines[0]!.call)).toContain(marker);

    // The command runs; the agent dies with it half done.
    await waitUntil(() => existsSync(path.join(f.ws, 'starts.txt')) || undefined, 'the run');
    process.kill(agent.pid, 'SIGKILL');
    await waitUntil(() => !isAlive(agent.pid), 'the agent to die', 15_000);
    await waitUntil(() => processesWith(marker).length === 0 || undefined, 'the sandbox gone');

    const restarted = await f.startAgent();
    const notice = await waitUntil(
      () => readLog(restarted.log).match(/You approved .*/)?.[0],
      'the notice about the unfinished call',
      60_000,
    );
    expect(notice).toContain(marker);
    expect(notice).toContain('(answer: yes)');
    expect(notice).toContain('not run again');
    await waitUntil(async () => (await f.state()) === 'AWAITING_INPUT' || undefined, 'idle');
    expect(readFileSync(path.join(f.ws, 'starts.txt'), 'utf8')).toBe('started\n');
    expect(processesWith(marker)).toEqual([]);
    expect(existsSync(path.join(f.ws, 'ran.txt'))).toBe(false);
    expect(answerFiles(f.home).join('')).toBe('');

    // A graceful stop and start: nothing more to tell, nothing run.
    const logBefore = readLog(restarted.log).length;
    const stopped = await f.cogito(['stop']);
    expect(stopped.code, stopped.err).toBe(0);
    const again = await f.startAgent();
    await waitUntil(async () => (await f.state()) === 'AWAITING_INPUT' || undefined, 'idle');
    const after = readLog(again.log).slice(again.log === restarted.log ? logBefore : 0);
    expect(after).toContain('running in');
    expect(after).not.toContain('You approved');
    expect(readFileSync(path.join(f.ws, 'starts.txt'), 'utf8')).toBe('started\n');
    expect(existsSync(path.join(f.ws, 'ran.txt'))).toBe(false);
  }, 240_000);
});
