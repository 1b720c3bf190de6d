import v8 from 'node:v8';
import vm from 'node:vm';
import type { AgentEvent } from '../api/events.js';
import { createMallocTrim } from './mallocTrim.js';

/**
 * One full garbage collection when a turn has ended and the agent has gone quiet, at most
 * once per `minGapMs`; and when turns come back to back with no quiet between them (a user
 * typing as soon as the floor is theirs, a script sending), one at a turn's end once
 * `busyGapMs` has passed without a collection.
 *
 * Why: V8 keeps old space it has grown into. Over a day of turns the program's RSS climbs in
 * steps (bench/README.md, "Soak") although the live heap stays flat; one full collection in
 * a quiet moment gives the pages back. Never during a turn or a stream (a full collection
 * pauses the thread for tens of milliseconds), never twice within `minGapMs`.
 */
export interface IdleCollectOptions {
  /** Quiet time after a turn's end before collecting; any turn activity restarts it. */
  quietMs?: number;
  /** The least time between two collections. */
  minGapMs?: number;
  /**
   * Without a quiet moment for this long, the next turn's end collects at once: back-to-back
   * turns never leave `quietMs` free, and RSS grew 1.6x over 2,000 requests that way.
   */
  busyGapMs?: number;
  /**
   * After the quiet collection, more quiet time before one more when the young generation is
   * still grown (`youngGrown`): on Node 20 only a collection made once allocation has been slow
   * for several seconds shrinks it (below).
   */
  settleMs?: number;
  /** The collector (tests count calls); default: V8's full collection. */
  collect?: () => void;
  /**
   * After each collection: gives the C allocator's free pages back (default: glibc's
   * malloc_trim, src/app/mallocTrim.ts).
   */
  trim?: () => unknown;
  /** Whether V8's young generation holds more than its first size; default: V8's statistics. */
  youngGrown?: () => boolean;
  now?: () => number;
}

export interface IdleCollector {
  /** Feed every agent event (subscribe it to the agent). */
  onEvent(event: AgentEvent): void;
  /**
   * A quiet point other than a turn's end: collect once nothing has happened for `quietMs`
   * (the start-up, whose loading leaves as much garbage as a turn).
   */
  settled(): void;
  /** Collections done so far and the longest pause, in ms (what a test or a probe reads). */
  stats(): { collections: number; longestPauseMs: number };
  stop(): void;
}

/** Events that mean a turn is running: a pending collection waits for the next quiet. */
const BUSY: ReadonlySet<AgentEvent['type']> = new Set([
  'turn_start',
  'request_start',
  'reasoning_delta',
  'message_start',
  'message_update',
  'tool_start',
  'approval_request',
]);

export function createIdleCollector(options: IdleCollectOptions = {}): IdleCollector {
  const quietMs = options.quietMs ?? 1_500;
  const minGapMs = options.minGapMs ?? 10_000;
  const busyGapMs = options.busyGapMs ?? 20_000;
  const now = options.now ?? Date.now;
  const settleMs = options.settleMs ?? 8_000;
  const collect = options.collect ?? fullCollection();
  const youngGrown = options.youngGrown ?? youngGenerationGrown;
  const trim = options.trim ?? createMallocTrim();
  let timer: NodeJS.Timeout | undefined;
  let last = -Infinity;
  // The busy rule counts from the start too: the first busy collection comes busyGapMs in.
  const started = now();
  let collections = 0;
  let longestPauseMs = 0;

  const cancel = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
  const later = (fn: () => void, ms: number): void => {
    timer = setTimeout(fn, ms);
    // A pending collection never keeps the process alive.
    timer.unref();
  };
  const collectNow = (): void => {
    const started = performance.now();
    collect();
    trim();
    longestPauseMs = Math.max(longestPauseMs, performance.now() - started);
    collections += 1;
    last = now();
  };
  // Still quiet settleMs after the quiet collection: V8 shrinks its young generation (grown
  // to 16-32 MB by a turn's allocation; 10 MB of an idle screen's RSS) only in a collection
  // that finds allocation slow over the last seconds, or in its own memory reducer 10-20 s
  // into the quiet. On Node 22 and 24 the quiet collection already shrinks it, so this one
  // is skipped there; it is exempt from minGapMs, being at most one per quiet stretch.
  const settle = (): void => {
    timer = undefined;
    if (youngGrown()) collectNow();
  };
  const run = (): void => {
    timer = undefined;
    const wait = last + minGapMs - now();
    if (wait > 0) {
      // Too soon after the last one: collect once the gap has passed, if still quiet.
      later(run, wait);
      return;
    }
    collectNow();
    later(settle, settleMs);
  };

  const settled = (): void => {
    cancel();
    // Long without a quiet moment: now, between turns (after this frame), not at a quiet
    // that back-to-back turns never leave.
    const busyFor = now() - Math.max(last, started);
    later(run, busyFor >= busyGapMs ? 0 : quietMs);
  };

  return {
    onEvent(event) {
      if (BUSY.has(event.type)) return cancel();
      if (event.type === 'turn_end') settled();
    },
    settled,
    stats: () => ({ collections, longestPauseMs }),
    stop: cancel,
  };
}

/**
 * An idle collector fed by an agent's events (`subscribe`, as Agent and an attached screen's
 * connection both offer it); returns the stop that unsubscribes it and cancels what is
 * pending. The in-process app runs one beside its agent; a screen attached to a background
 * agent runs its own: it draws the same stream and keeps the same caches (the agent's
 * process has its own collector).
 */
export function collectWhenQuiet(
  subscribe: (listener: (event: AgentEvent) => void) => () => void,
  options?: IdleCollectOptions,
): () => void {
  const collector = createIdleCollector(options);
  const unsubscribe = subscribe((event) => collector.onEvent(event));
  // Loading the program and drawing its first frames leave garbage and a grown young
  // generation, as a turn does; without this an agent that starts paused, or an attached
  // screen whose agent is between turns, kept it until a turn ended (an attached screen: ~85
  // MB idle against ~70 after a collection, Node 20). A turn that starts first cancels it.
  collector.settled();
  return () => {
    unsubscribe();
    collector.stop();
  };
}

/** V8's full collection, reached without `--expose-gc` on the command line. */
function fullCollection(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return () => exposed();
  // The flag makes V8 install `gc` in contexts created afterwards; one fresh context lends
  // it. A plain gc() is a full, compacting collection (gc({type:'major'}) was not, on Node 20).
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as ((options?: object) => void) | undefined;
  if (typeof gc !== 'function') return () => undefined;
  // The "last resort" flavour also shrinks the young generation back to its first size (a
  // plain gc() leaves it at the 16-32 MB a burst grew it to; V8's own memory reducer shrinks
  // it only after ~10-20 s idle) and gives pooled pages back: ~17 MB of idle RSS on Node 24,
  // for a longer pause (~80 ms against ~20-35 ms on a 24 MB heap; bench/README.md, "Idle
  // memory"; on Node 22 ~12 MB of pooled pages). Verified on V8 12 (Node 22) and 13 (Node 24);
  // V8 11 (Node 20) ignores the flavour and does not even run a full collection for an options
  // object, so it keeps the plain call and the settle collection above.
  if (v8Major() >= 12) return () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return () => gc();
}

/** A first-size young generation is 1 MB of semi-space (0.3-1 MB physical); grown, 8-32 MB. */
const YOUNG_FIRST_SIZE_BYTES = 2 * 1024 * 1024;

function youngGenerationGrown(): boolean {
  const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  return young !== undefined && young.physical_space_size > YOUNG_FIRST_SIZE_BYTES;
}

function v8Major(): number {
  return Number(/^(\d+)/.exec(process.versions.v8)?.[1] ?? 0);
}
