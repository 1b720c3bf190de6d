import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionStore } from '../../src/history/sessionStore.js';
import { makeTmpDir } from './tmpDir.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const writer = path.join(here, 'fixtures', 'writer.ts');
const projectRoot = path.resolve(here, '..', '..');

/**
 * Runs the writer, SIGKILLs it once it has acknowledged `atLeast` appends, and returns the
 * session id and every id it acknowledged (including acks still in the pipe at the kill).
 */
async function runAndKill(
  dataDir: string,
  sessionId: string | undefined,
  atLeast: number,
): Promise<{ sessionId: string; acked: string[] }> {
  const args = ['--import', 'tsx', writer, dataDir, ...(sessionId ? [sessionId] : [])];
  const child = spawn(process.execPath, args, {
    cwd: projectRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let buffered = '';
  let stderr = '';
  let id: string | undefined;
  const acked: string[] = [];
  let killed = false;
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    buffered += d.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? ''; // Keep an incomplete line for the next chunk.
    for (const line of lines) {
      if (line.startsWith('session ')) id = line.slice('session '.length);
      else if (line.startsWith('ack ')) acked.push(line.slice('ack '.length));
    }
    if (!killed && acked.length >= atLeast) {
      killed = true;
      child.kill('SIGKILL');
    }
  });
  // A safety net only: the kill normally comes from the data handler above.
  const deadline = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const { code, signal } = await new Promise<{ code: number | null; signal: string | null }>(
    (resolve) => child.on('close', (c, s) => resolve({ code: c, signal: s })),
  );
  clearTimeout(deadline);
  expect(stderr, 'writer stderr').toBe('');
  expect({ code, signal, killed }, `acked ${acked.length} before the deadline`).toEqual({
    code: null,
    signal: 'SIGKILL',
    killed: true,
  });
  if (!id) throw new Error('writer never printed its session id');
  return { sessionId: id, acked };
}

describe('crash safety', () => {
  let tmp: ReturnType<typeof makeTmpDir>;
  afterEach(() => tmp.cleanup());

  it('keeps every acknowledged message through three SIGKILLs mid-burst', async () => {
    tmp = makeTmpDir();
    const store = new SessionStore(tmp.dir);
    let sessionId: string | undefined;
    const allAcked: string[] = [];
    for (let round = 0; round < 3; round += 1) {
      const run = await runAndKill(tmp.dir, sessionId, 300);
      sessionId = run.sessionId;
      allAcked.push(...run.acked);
      expect(run.acked.length).toBeGreaterThanOrEqual(300);

      const session = await store.open(sessionId);
      const loaded = session.messages().map((m) => m.id);
      session.close();
      // In order, with at most the one message written but not yet acknowledged at the kill
      // (plus, in later rounds, none lost from earlier ones).
      expect(loaded.slice(0, allAcked.length)).toEqual(allAcked);
      expect(loaded.length - allAcked.length).toBeLessThanOrEqual(1);
      // Keep any unacknowledged survivor in the running list so the next round lines up.
      allAcked.push(...loaded.slice(allAcked.length));
    }
  });
});
