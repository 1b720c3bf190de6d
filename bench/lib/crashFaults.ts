/** SIGKILL in the middle of writing the history: the crash-test writer, and the real program. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createApp } from '../../src/app/createApp.js';
import type { HistoryMessage } from '../../src/core/messages.js';
import { SessionStore } from '../../src/history/index.js';
import { startScriptedServer, type RecordedRequest } from '../../test/helpers/scriptedServer.js';
import { COGITO, ROOT, makeHome } from './appEnv.js';
import type { FaultRow } from './faultKit.js';
import { internalsOf } from '../../test/helpers/agentInternals.js';

/** The crash-test writer, SIGKILLed once it has acknowledged `atLeast` appends. */
async function killWriter(
  dataDir: string,
  sessionId: string | undefined,
  atLeast: number,
): Promise<{ id: string; acked: string[] }> {
  const writer = path.join(ROOT, 'test', 'history', 'fixtures', 'writer.ts');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', writer, dataDir, ...(sessionId ? [sessionId] : [])],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let buffered = '';
  let id: string | undefined;
  const acked: string[] = [];
  child.stdout.on('data', (d: Buffer) => {
    buffered += d.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith('session ')) id = line.slice(8);
      else if (line.startsWith('ack ')) acked.push(line.slice(4));
    }
    if (acked.length >= atLeast) child.kill('SIGKILL');
  });
  const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await new Promise((r) => child.on('close', r));
  clearTimeout(guard);
  if (!id) throw new Error('the writer never printed its session id');
  return { id, acked };
}

/**
 * The crash-test writer (test/history/fixtures/writer.ts) SIGKILLed mid-burst, five rounds on
 * one session: every acknowledged append must load again.
 */
export async function sigkillWriter(): Promise<FaultRow> {
  const dir = fs.mkdtempSync(path.join(ROOT, 'bench', 'results', 'tmp', 'kill-'));
  try {
    let id: string | undefined;
    const acked: string[] = [];
    const loads: number[] = [];
    const warnings: string[] = [];
    let lost = 0;
    for (let round = 0; round < 5; round++) {
      const run = await killWriter(dir, id, 200 + round * 50);
      id = run.id;
      acked.push(...run.acked);
      const t = performance.now();
      const session = await new SessionStore(dir).open(id);
      loads.push(performance.now() - t);
      warnings.push(...session.loadWarnings);
      const loaded = session.messages().map((m) => m.id);
      session.close();
      const have = new Set(loaded);
      lost = acked.filter((a) => !have.has(a)).length;
      if (lost > 0) break;
      acked.push(...loaded.filter((x) => !acked.includes(x)));
    }
    return {
      fault: 'SIGKILL during writes (history writer)',
      survived: true,
      dataLost: lost === 0 ? false : `${lost} acknowledged message(s)`,
      detectMs: null,
      recoverMs: Math.round(Math.max(...loads)),
      message: warnings[0] ?? '(nothing to report: the file ended on a whole line)',
      detail: `5 rounds, each SIGKILLed mid-burst after 200–400 acknowledged appends (${acked.length} in all); recover = the slowest reload`,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The real program in print mode, SIGKILLed mid-run; then started again on the same home. */
export async function sigkillApp(): Promise<FaultRow> {
  const server = await startScriptedServer();
  let n = 0;
  server.setDefault((req: RecordedRequest) => ({
    kind: 'stream',
    content: `Step ${req.index}: ${((n++ * 2654435761) % 2 ** 32).toString(36)} checked.`,
  }));
  const home = makeHome(server.url, { maxAutonomousCycles: 0 });
  try {
    const child = spawn(
      COGITO[0]!,
      [
        COGITO[1]!,
        '-p',
        'Work on your own.',
        '--json',
        '--max-cycles',
        '100000',
        '--think-interval',
        '0',
      ],
      {
        env: home.env(),
        cwd: home.workspace,
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    const saved: string[] = [];
    let buffered = '';
    let turns = 0;
    child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (line.includes('"message_added"'))
          saved.push((JSON.parse(line) as { message: HistoryMessage }).message.id);
        if (line.includes('"turn_end"') && ++turns === 150) child.kill('SIGKILL');
      }
    });
    const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
    await new Promise((r) => child.on('close', r));
    clearTimeout(guard);
    // Start again on the same home: the lock of the killed process must not block it.
    const t = performance.now();
    const made = await createApp({
      flags: {},
      env: home.env(),
      cwd: home.workspace,
      initialState: 'AWAITING_INPUT',
    });
    const recoverMs = performance.now() - t;
    if (!made.ok) {
      return {
        fault: 'SIGKILL during writes (the app)',
        survived: false,
        dataLost: 'unknown',
        detectMs: null,
        recoverMs: null,
        message: made.message,
        detail: 'could not start again',
      };
    }
    const have = new Set(
      internalsOf(made.app.agent)
        .history.messages()
        .map((m) => m.id),
    );
    const warnings = made.app.warnings;
    await made.app.close();
    const lost = saved.filter((id) => !have.has(id)).length;
    return {
      fault: 'SIGKILL during writes (the app)',
      survived: true,
      dataLost: lost === 0 ? false : `${lost} of ${saved.length} reported messages`,
      detectMs: null,
      recoverMs: Math.round(recoverMs),
      message: warnings[0] ?? '(none: started normally)',
      detail: `print mode at full speed, SIGKILLed after ${turns} turns; ${saved.length} messages it had reported saved; recover = createApp on the same home`,
    };
  } finally {
    await server.close();
    home.cleanup();
  }
}
