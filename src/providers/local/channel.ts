/**
 * A one-reader async queue that turns node-llama-cpp's callbacks into something a generator
 * can `for await` over. Closing it ends the reader's loop at once, even while nothing is
 * queued: that is how an abort ends the stream without waiting for llama.cpp to notice.
 */
interface Channel<T> extends AsyncIterable<T> {
  /** Queues a value (ignored after `close`). */
  push(value: T): void;
  /** Ends the iteration; values still queued are dropped only if `drop` is true. */
  close(drop?: boolean): void;
  readonly closed: boolean;
}

export function createChannel<T>(): Channel<T> {
  const queue: T[] = [];
  let closed = false;
  let wake: (() => void) | undefined;

  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };

  return {
    get closed() {
      return closed;
    },
    push(value) {
      if (closed) return;
      queue.push(value);
      notify();
    },
    close(drop = false) {
      closed = true;
      if (drop) queue.length = 0;
      notify();
    },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        if (queue.length > 0) {
          yield queue.shift() as T;
          continue;
        }
        if (closed) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
}
