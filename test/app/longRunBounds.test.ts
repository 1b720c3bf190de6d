/**
 * A long-running agent's in-memory structures stay bounded: the real core as print mode
 * builds it (createApp, runPrintMode with --max-cycles), against the scripted server, turns
 * back to back, each a Markdown reply creating a file and a wrap-up (the soak's turns,
 * bench/soak.ts). Sizes are read after every turn; memory timing is the bench's business.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/createApp.js';
import { runPrintMode } from '../../src/cli/printMode.js';
import { MAX_LEDGER, MAX_NOTICES, MAX_TRACES } from '../../src/store/reducer.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { soakScript } from '../../bench/lib/soakScript.js';
import { internalsOf } from '../helpers/agentInternals.js';

const TURNS = 120;
const COMPRESS_TURNS = 20;

describe('a long-running agent', () => {
  let server: ScriptedServer;
  let dir: string;
  beforeEach(async () => {
    server = await startScriptedServer();
    dir = await mkdtemp(path.join(os.tmpdir(), 'cogito-bounds-'));
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it(`keeps history, store and caches bounded over ${TURNS} turns`, async () => {
    server.setDefault(soakScript(() => {}));
    const home = path.join(dir, 'home');
    const ws = path.join(dir, 'ws');
    await mkdir(home);
    await mkdir(ws);
    const config = { maxAutonomousCycles: 0, tokenBudgetPerDay: 0, compressTurns: COMPRESS_TURNS };
    await writeFile(path.join(home, 'config.json'), JSON.stringify(config));
    const made = await createApp({
      flags: { thinkIntervalMs: 0 },
      env: {
        COGITO_HOME: home,
        COGITO_BASE_URL: server.url,
        COGITO_API_KEY: 'sk-t',
        COGITO_MODEL: 'm',
      },
      cwd: ws,
      initialState: 'AWAITING_INPUT',
      background: false,
    });
    if (!made.ok) throw new Error(made.message);
    const { app } = made;
    const peak = { history: 0, store: 0, traces: 0, ledger: 0, notices: 0, counted: 0 };
    app.agent.subscribe((e) => {
      if (e.type !== 'turn_end') return;
      const s = app.agent.store.getState();
      peak.history = Math.max(peak.history, internalsOf(app.agent).history.messages().length);
      peak.store = Math.max(peak.store, s.messages.length);
      peak.traces = Math.max(peak.traces, s.traces.length);
      peak.ledger = Math.max(peak.ledger, s.ledger.length);
      peak.notices = Math.max(peak.notices, s.notices.length);
      peak.counted = Math.max(peak.counted, internalsOf(app.agent).counter.cachedMessages);
    });
    const sink = new Writable({ write: (_c, _e, cb) => cb() });
    const run = runPrintMode(app.agent, {
      prompt: 'Keep notes, one file per turn.',
      json: true,
      maxCycles: TURNS,
      out: sink,
      err: sink,
    });
    const result = await run.done;
    await app.close();
    expect(result.turns).toBe(TURNS);
    // Every turn created its file: the turns were the real thing.
    expect((await readdir(path.join(ws, 'soak'))).length).toBe(TURNS);
    // Three messages a turn: unbounded, the history would hold 360. Compression keeps it
    // near compressTurns; the store shows what the history holds.
    expect(peak.history).toBeLessThanOrEqual(COMPRESS_TURNS * 3);
    expect(peak.store).toBeLessThanOrEqual(COMPRESS_TURNS * 3);
    expect(peak.traces).toBeLessThanOrEqual(MAX_TRACES);
    expect(peak.ledger).toBeLessThanOrEqual(MAX_LEDGER);
    expect(peak.notices).toBeLessThanOrEqual(MAX_NOTICES);
    // The counter counts what is asked; compressed messages leave with a turnover.
    expect(peak.counted).toBeGreaterThan(0);
  }, 240_000);
});
