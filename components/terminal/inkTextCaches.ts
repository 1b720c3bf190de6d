/**
 * A bound on Ink 6.8's two text caches, which never let anything go.
 *
 * `measure-text.js` keeps a module-level `Map` from every text Ink ever measured to its size,
 * and `wrap-text.js` a module-level object from every (text, width, wrap mode) to its wrapped
 * form. Every frame of a streaming reply, every status line with a new token count or clock
 * brings new texts, so over a day both grew without end: the soak (bench/soak.ts) saw the
 * full-screen app go from 133 MB to 535 MB over 2,150 turns with its heap made of these keys.
 *
 * Neither cache is exported, so each is reached once, through a probe call whose store
 * is caught as it happens (a `Map.prototype.set` for the Map, an inherited setter for the
 * object), and then bounded in place: when a cache reaches its limit it is emptied and
 * starts again. Results are the same with or without an entry (a miss measures or wraps
 * again), so only speed could change, and a frame needs a few hundred entries at most.
 *
 * Ink's two modules come through the one door (`inkInternals.ts`), and only on the Ink it was
 * written for: on another the bound reports `false` and changes nothing, as it does if the
 * probe catches nothing.
 */
import { inkDoor, inkTextFunctions, type InkDoor } from './inkInternals.js';

type InkText = NonNullable<ReturnType<typeof inkTextFunctions>>;

/** Entries each cache may hold before it is emptied. */
export const INK_TEXT_CACHE_LIMIT = 2_000;

/** A text no frame will ever hold: what the probes ask Ink to measure and wrap. */
const PROBE = '\u0000cogito-ink-cache-probe\u0000';

type WrapCache = Record<string, string>;

interface Bound {
  limit: number;
  measure: Map<string, unknown>;
  wrap: WrapCache;
  /** Entries in the wrap cache since it was last emptied (counting an object's keys is O(n)). */
  wrapCount: number;
}

// Kept on the global object: a test runner may load this file again while Ink's modules (and
// the bound already on their caches) stay loaded, and the probes cannot catch a bound cache.
const STATE = Symbol.for('cogito.inkTextCaches');
const holder = globalThis as { [STATE]?: Bound };

/** The Map `measureText` stores into, caught while it stores the probe. */
function catchMeasureCache({ measureText }: InkText): Map<string, unknown> | undefined {
  let caught: Map<string, unknown> | undefined;
  const set = Map.prototype.set;
  Map.prototype.set = function (this: Map<unknown, unknown>, key: unknown, value: unknown) {
    if (key === PROBE) caught = this as Map<string, unknown>;
    return set.call(this, key, value);
  };
  try {
    measureText(PROBE);
  } finally {
    Map.prototype.set = set;
  }
  caught?.delete(PROBE);
  return caught;
}

/**
 * The object `wrapText` stores into: `cache[key] = value` on an object without that key runs
 * an inherited setter, whose `this` is the cache. The setter lives on Object.prototype only
 * for the one synchronous call.
 */
function catchWrapCache({ wrapText }: InkText): WrapCache | undefined {
  // wrap-text.js keys its cache by text + width + mode.
  const key = `${PROBE}1wrap`;
  let caught: WrapCache | undefined;
  Object.defineProperty(Object.prototype, key, {
    configurable: true,
    get: () => undefined,
    set(this: WrapCache) {
      // The receiver is what this probe is for: the cache object itself.
      // eslint-disable-next-line @typescript-eslint/no-this-alias
      caught = this;
    },
  });
  try {
    wrapText(PROBE, 1, 'wrap');
  } finally {
    delete (Object.prototype as Record<string, unknown>)[key];
  }
  return caught;
}

function emptyWrap(b: Bound): void {
  for (const k of Object.keys(b.wrap)) delete b.wrap[k];
  b.wrapCount = 0;
}

/**
 * Bounds both caches (found once per process; a later call only sets the limit). True when
 * both were found and are bounded now. `COGITO_INK_CACHES=unbounded` leaves Ink as it is,
 * for the soak's comparison (`bench/soak.ts --screen --unbounded`).
 */
export function boundInkTextCaches(
  door: InkDoor = inkDoor(),
  limit = INK_TEXT_CACHE_LIMIT,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (env.COGITO_INK_CACHES === 'unbounded') return false;
  const ink = inkTextFunctions(door);
  if (!ink) return false;
  const known = holder[STATE];
  if (known) {
    known.limit = limit;
    return true;
  }
  const measure = catchMeasureCache(ink);
  const wrap = catchWrapCache(ink);
  if (!measure || !wrap) return false;
  const b: Bound = { limit, measure, wrap, wrapCount: Object.keys(wrap).length };
  // The Map: its own `set`, which empties it first when full.
  Object.defineProperty(measure, 'set', {
    configurable: true,
    value(this: Map<string, unknown>, k: string, v: unknown) {
      if (this.size >= b.limit) this.clear();
      return Map.prototype.set.call(this, k, v);
    },
  });
  // The object: a missing key is looked up (and stored) through its prototype, so a
  // prototype that counts the stores can empty it first. Reads of a missing key give
  // undefined, as the plain object gave.
  const counting = new Proxy(Object.create(null) as WrapCache, {
    get: () => undefined,
    set(_target, k, v, receiver: WrapCache) {
      if (b.wrapCount >= b.limit) emptyWrap(b);
      Object.defineProperty(receiver, k, {
        value: v,
        writable: true,
        enumerable: true,
        configurable: true,
      });
      b.wrapCount += 1;
      return true;
    },
  });
  Object.setPrototypeOf(wrap, counting);
  holder[STATE] = b;
  return true;
}

/** Entries held now, for tests and the soak (undefined before the bound is installed). */
export function inkTextCacheSizes(): { measure: number; wrap: number } | undefined {
  const b = holder[STATE];
  if (!b) return undefined;
  return { measure: b.measure.size, wrap: Object.keys(b.wrap).length };
}
