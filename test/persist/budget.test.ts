/**
 * The daily token budget counts every run of this home, from the ledgers: a cron job running
 * `cogito -p` again and again is held by it, though each run is a new process. Through the
 * real program (print mode) and the scripted server.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recentSpend } from '../../src/ledger/homeSpend.js';
import { runCogito } from '../helpers/cogitoProcess.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';

describe('budgets across restarts', () => {
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    server = await startScriptedServer();
    ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-budget-ws-'));
    home = await mkdtemp(path.join(os.tmpdir(), 'cogito-budget-home-'));
    env = { COGITO_API_KEY: 'k', COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' };
  });
  afterEach(async () => {
    await server.close();
    await rm(ws, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it('a cron job of one-shot runs is stopped by the daily budget, before sending', async () => {
    // Two runs of 30 000 tokens fit a 60 500-token day; the third would pass it.
    await writeFile(path.join(home, 'config.json'), JSON.stringify({ tokenBudgetPerDay: 60_500 }));
    const spend = { prompt_tokens: 29_000, completion_tokens: 1_000 };
    const runOnce = () =>
      runCogito(
        ['-p', 'check the inbox', '--workspace', ws, '--home', home, '--think-interval', '0'],
        env,
      );
    for (let i = 0; i < 2; i++) {
      server.push({ kind: 'stream', content: `Run ${i}: nothing new. [WAIT]`, usage: spend });
      const r = runOnce();
      expect(await r.code, r.stderr()).toBe(0);
    }
    expect(server.requests).toHaveLength(2);
    expect(recentSpend(path.join(home, 'data', 'sessions'), Date.now() - 3600_000)).toEqual([
      { at: expect.any(Number), tokens: 30_000 },
      { at: expect.any(Number), tokens: 30_000 },
    ]);

    server.push({ kind: 'stream', content: 'This must not be asked for. [WAIT]', usage: spend });
    const third = runOnce();
    expect(await third.code).toBe(1);
    // Held before sending: the server saw no third request, and the reason names the fix.
    expect(server.requests).toHaveLength(2);
    expect(third.stderr()).toContain('daily token budget (60000 of 60500');
    expect(third.stderr()).toContain('tokenBudgetPerDay');
  });

  it('spending older than a day, damaged lines and missing folders count as nothing', async () => {
    const sessions = path.join(home, 'data', 'sessions');
    expect(recentSpend(sessions, 0)).toEqual([]);
    const dir = path.join(sessions, 's1');
    await mkdir(dir, { recursive: true });
    const now = Date.now();
    const rec = (at: number, tokensIn: number) =>
      JSON.stringify({ turnId: 1, at, reason: 'user', tokensIn, tokensOut: 0, tokensCached: 0 });
    await writeFile(
      path.join(dir, 'ledger.jsonl'),
      [rec(now - 2 * 86_400_000, 500), '{"cut by a cra', rec(now - 1000, 700), ''].join('\n'),
    );
    expect(recentSpend(sessions, now - 86_400_000)).toEqual([{ at: now - 1000, tokens: 700 }]);
  });
});
