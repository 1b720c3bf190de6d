/** Faults in the session files: a damaged history at start-up, a disk that fills up. */
import { swapHistory, internalsOf } from '../../test/helpers/agentInternals.js';
import fs from 'node:fs';
import path from 'node:path';
import { SessionStore } from '../../src/history/index.js';
import { realFs, type HistoryFs } from '../../src/history/fsPort.js';
import { startCore, visibleText, type Core } from './core.js';
import { isOkEnd, lostFromDisk, type FaultRow } from './faultKit.js';
import { writeSession } from './sessionData.js';

/** Damages the last session's history, then starts the core on it. */
export async function corruptHistory(
  fault: string,
  damage: (file: string) => void,
  expect: (loaded: number) => string,
): Promise<FaultRow> {
  let createMs = 0;
  let file = '';
  const core: Core = await startCore({
    initialState: 'AWAITING_INPUT',
    prepare: async (home) => {
      const dataDir = path.join(home.home, 'data');
      const id = await writeSession(dataDir, 1000);
      file = path.join(dataDir, 'sessions', id, 'history.jsonl');
      damage(file);
    },
    onCreated: (ms) => (createMs = ms),
  });
  try {
    const loaded = internalsOf(core.app.agent).history.messages().length;
    const warning = core.app.warnings[0] ?? '(no warning)';
    // Still works: a message is answered and saved.
    core.app.agent.start();
    core.server.setDefault({ kind: 'stream', content: 'Fine. [WAIT]' });
    core.app.agent.send({ type: 'submit', text: 'still there?' });
    await core.waitFor(isOkEnd, 'a turn after the repair');
    const inMemory = internalsOf(core.app.agent).history.messages();
    await core.close();
    const aside = fs.readdirSync(path.dirname(file)).filter((f) => f.includes('.corrupt-'));
    const lostNow = await lostFromDisk(core.home, inMemory);
    return {
      fault,
      survived: true,
      dataLost: lostNow || expect(loaded),
      detectMs: null,
      recoverMs: Math.round(createMs),
      message: warning,
      detail: `${loaded} of 1000 messages loaded; original kept aside: ${aside.length > 0 ? aside[0] : 'no'}; recover = createApp time`,
    };
  } finally {
    core.home.cleanup();
  }
}

/** The disk fills up (writeSync throws ENOSPC), then space is freed and autonomy resumed. */
export async function diskFull(): Promise<FaultRow> {
  let full = false;
  const faulty: HistoryFs = {
    ...realFs,
    writeSync: ((...args: Parameters<typeof realFs.writeSync>) => {
      if (full)
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
          code: 'ENOSPC',
          errno: -28,
          syscall: 'write',
        });
      return (realFs.writeSync as (...a: unknown[]) => number)(...args);
    }) as HistoryFs['writeSync'],
  };
  const core = await startCore({ initialState: 'AWAITING_INPUT' });
  try {
    const dataDir = path.join(core.home.home, 'data');
    const id = (await new SessionStore(dataDir).latest())!.id;
    const session = await new SessionStore(dataDir, { fs: faulty }).open(id);
    swapHistory(core.app.agent, session);
    core.server.setDefault({
      kind: 'stream',
      content: 'Written down. Carrying on with the notes.',
    });
    core.app.agent.start();
    full = true;
    const t0 = performance.now();
    core.app.agent.send({ type: 'submit', text: 'Remember: the meeting moved to Friday.' });
    const err = await core.waitFor(
      (e) => e.type === 'error' && e.error.kind === 'history_write',
      'the write error',
    );
    const paused = await core.waitFor(
      (e) => e.type === 'state_changed' && e.to === 'PAUSED',
      'the auto-pause',
    );
    const pendingWhileFull = session.pendingCount;
    // Space is freed; the user resumes (Ctrl+P) once the paused turn has wound down.
    await core.app.agent.idle();
    full = false;
    const freedAt = performance.now();
    core.app.agent.send({ type: 'resume' });
    await core.waitFor(isOkEnd, 'a turn after the disk was freed', {
      from: core.events.indexOf(core.events.find((x) => x.t >= freedAt)!),
    });
    const flushedAt = performance.now();
    const pendingAfter = session.pendingCount;
    const inMemory = session.messages();
    await core.app.agent.stop();
    session.close();
    await core.close();
    return {
      fault: 'write error (disk full, ENOSPC)',
      survived: true,
      dataLost:
        pendingAfter === 0
          ? await lostFromDisk(core.home, inMemory)
          : `${pendingAfter} message(s) still unwritten`,
      detectMs: Math.round(err.t - t0),
      recoverMs: Math.round(flushedAt - freedAt),
      message: visibleText(err.e) ?? '',
      detail: `${pendingWhileFull} message(s) held in memory while the disk was full; auto-paused with "${visibleText(paused.e) ?? ''}"; written in order by the first save after resume (recover = resume → saved)`,
    };
  } finally {
    core.home.cleanup();
  }
}

/** Cuts the file 40 bytes short: the last line ends mid-record, as after a crash mid-write. */
export function truncateLastLine(file: string): void {
  const buf = fs.readFileSync(file);
  fs.writeFileSync(file, buf.subarray(0, buf.length - 40));
}

/** Replaces line 501 with binary junk (bytes that are not UTF-8). */
export function garbageLine(file: string): void {
  const buf = fs.readFileSync(file);
  let start = 0;
  for (let n = 0; n < 500; n++) start = buf.indexOf(0x0a, start) + 1;
  const end = buf.indexOf(0x0a, start);
  const junk = Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x67, 0x61, 0x72, 0x62, 0xc3, 0x28]);
  fs.writeFileSync(file, Buffer.concat([buf.subarray(0, start), junk, buf.subarray(end)]));
}
