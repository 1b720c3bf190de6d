/**
 * A stall detector for streaming replies: armed while we wait for the server, reset by
 * every byte that arrives, disarmed while our consumer is busy with what we already have
 * (a slow consumer is not a stalled server). When it fires it calls `onStall` once.
 */
export interface IdleWatchdog {
  /** Start (or restart) counting; call when we begin waiting for the next chunk. */
  arm(): void;
  /** Stop counting while the consumer holds the stream. */
  disarm(): void;
  /** Bytes arrived: restart the count if armed. */
  touch(): void;
  /** Disarm for good; later calls do nothing. */
  stop(): void;
  /** True once `onStall` ran. */
  readonly fired: boolean;
}

/** Creates a watchdog that calls `onStall` after `idleMs` without a `touch` while armed. */
export function createIdleWatchdog(idleMs: number, onStall: () => void): IdleWatchdog {
  let timer: NodeJS.Timeout | undefined;
  let armed = false;
  let stopped = false;
  let fired = false;

  const clear = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const start = (): void => {
    clear();
    timer = setTimeout(() => {
      timer = undefined;
      if (!armed || stopped) return;
      fired = true;
      stopped = true;
      onStall();
    }, idleMs);
  };

  return {
    arm() {
      if (stopped) return;
      armed = true;
      start();
    },
    disarm() {
      armed = false;
      clear();
    },
    touch() {
      if (armed && !stopped) start();
    },
    stop() {
      stopped = true;
      armed = false;
      clear();
    },
    get fired() {
      return fired;
    },
  };
}
