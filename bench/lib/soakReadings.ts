/**
 * The soak's readings of a running program at a checkpoint (a count of model requests), taken
 * from outside while its turns go on: RSS and open fds three times about a second apart (the
 * median is what is compared: single readings swing with the young generation and with what a
 * turn has in flight), then the heap retained after a full collection, through the inspector.
 * The turns are not paused for the readings: a pause would be an idle gap in which V8 (and the
 * program's own idle collection) gives memory back, which a user typing on does not get.
 */
import { heapAfterFullGc, type HeapAfterGc } from './inspector.js';
import { fdsOf } from './procStats.js';
import { mb, rssOf } from './rss.js';

export interface Checkpoint {
  requests: number;
  /** Seconds from the program's start to the first reading. */
  seconds: number;
  /** Median of the three readings, MB. */
  rssMB: number;
  rssReadingsMB: number[];
  /** Median open fds, and sockets among them. */
  fds: number;
  sockets: number;
  /** After the RSS and fd readings; undefined if the inspector did not answer. */
  afterGc?: HeapAfterGc | undefined;
  loadAvg1: number;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function readCheckpoint(
  pid: number,
  inspectorPort: number,
  requests: number,
  startedAt: number,
  loadAvg1: () => number,
): Promise<Checkpoint> {
  const seconds = Math.round((performance.now() - startedAt) / 100) / 10;
  const rss: number[] = [];
  const fds: number[] = [];
  const sockets: number[] = [];
  for (let i = 0; i < 3; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 1000));
    rss.push(mb(rssOf(pid)));
    const f = fdsOf(pid);
    fds.push(f.fds);
    sockets.push(f.sockets);
  }
  let afterGc: HeapAfterGc | undefined;
  try {
    afterGc = await heapAfterFullGc(inspectorPort);
  } catch (err) {
    process.stderr.write(`  heap after GC at ${requests}: ${String(err)}\n`);
  }
  const c: Checkpoint = {
    requests,
    seconds,
    rssMB: median(rss),
    rssReadingsMB: rss,
    fds: median(fds),
    sockets: median(sockets),
    afterGc,
    loadAvg1: loadAvg1(),
  };
  process.stderr.write(
    `  ${requests} requests (${seconds} s): RSS ${c.rssMB} MB [${rss.join(', ')}], ${c.fds} fds, heap after GC ${afterGc?.heapUsedMB ?? '?'} MB, load ${c.loadAvg1}\n`,
  );
  return c;
}

/** The checkpoints of a run to `total` requests: 200, 1,000, 2,000, 5,000, 10,000 and the last. */
export function checkpointsFor(total: number): number[] {
  const fixed = [200, 1000, 2000, 5000, 10000].filter((n) => n < total);
  return [...fixed, total];
}

/**
 * Starts each checkpoint's readings when the request count reaches it (called with every
 * count); `done()` resolves with all of them once the last is read.
 */
export function checkpointTaker(
  points: readonly number[],
  read: (requests: number) => Promise<Checkpoint>,
): { onRequest(count: number): void; done(): Promise<Checkpoint[]>; reached: Promise<void> } {
  const taken: Promise<Checkpoint>[] = [];
  let reach!: () => void;
  const reached = new Promise<void>((r) => (reach = r));
  const last = points.at(-1)!;
  return {
    onRequest(count) {
      if (!points.includes(count)) return;
      const p = read(count);
      taken.push(p);
      if (count === last) void p.finally(reach);
    },
    done: () => Promise.all(taken),
    reached,
  };
}
