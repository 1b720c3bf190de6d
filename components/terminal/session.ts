/**
 * One stay in the alternate screen, which may show several Ink trees in turn (the setup
 * wizard, then the app). The screen is entered once and restored exactly once, whatever
 * ends the stay: the last tree finishing, a signal, an uncaught error.
 */
import type React from 'react';
import { render as inkRender } from 'ink';
import { FrameWriter } from './frameWriter.js';
import { CLEAR_SCREEN, createTerminalGuard } from './terminalGuard.js';

type Emitter = Pick<NodeJS.EventEmitter, 'on' | 'off'>;

export interface SessionIo {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WritableStream;
  /** Where signals and uncaught errors are heard (the process). */
  proc: Emitter;
  /** The line printed after the screen is restored when a crash ended the session. */
  describeCrash(error: unknown): string;
}

/** How showing a tree ended: it finished with a value, or the whole session ended. */
export type Shown<T> = { ended: false; value: T } | { ended: true; code: number };

export interface ScreenSession {
  /**
   * Renders the tree `build` returns and resolves when the tree calls `finish` (the tree is
   * unmounted first), or when a signal or crash ends the session.
   */
  show<T>(build: (finish: (value: T) => void) => React.ReactElement): Promise<Shown<T>>;
  /**
   * Between two trees: wipes the screen, so the next starts on a clean page, and puts the
   * terminal back in raw mode (the last tree's unmount left it cooked), so keys typed while
   * the next tree is prepared are kept for it instead of echoing over the screen.
   */
  between(): void;
  /** Ctrl+L: wipes the terminal; the next frame is painted whole. */
  clearScreen(): void;
  /** Mouse reporting on or off (the setting and Ctrl+S); off again whatever ends the session. */
  setMouse(on: boolean): void;
  /** Unmounts, leaves the alternate screen (once), stops listening, then prints any error. */
  end(code: number, error?: unknown): void;
}

/** Exit codes for the signals: 128 + the signal's number, as shells report them. */
const SIGNAL_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/** Enters the alternate screen and starts listening for signals and crashes. */
export function openSession(io: SessionIo): ScreenSession {
  const terminal = createTerminalGuard(io.stdout, io.stdin);
  const frames = new FrameWriter(io.stdout);
  const handlers: [string, (...args: unknown[]) => void][] = [];
  let instance: ReturnType<typeof inkRender> | undefined;
  let pending: ((shown: Shown<never>) => void) | undefined;
  let endedWith: number | undefined;

  let stopResize: (() => void) | undefined;

  const unmount = (): void => {
    const current = instance;
    instance = undefined;
    stopResize?.();
    stopResize = undefined;
    try {
      current?.unmount();
    } catch {
      // Unmounting a crashed tree can throw; the terminal must still be restored.
    }
  };

  const session: ScreenSession = {
    show<T>(build: (finish: (value: T) => void) => React.ReactElement): Promise<Shown<T>> {
      if (endedWith !== undefined) return Promise.resolve({ ended: true, code: endedWith });
      return new Promise<Shown<T>>((resolve) => {
        let settled = false;
        const settle = (shown: Shown<T>): void => {
          if (settled) return;
          settled = true;
          pending = undefined;
          resolve(shown);
        };
        pending = settle;
        const finish = (value: T): void => {
          if (settled) return;
          unmount();
          settle({ ended: false, value });
        };
        try {
          const shown = inkRender(build(finish), {
            stdin: io.stdin,
            // Ink hands each frame whole to the writer, which writes only the rows that
            // changed, in one write (frameWriter.ts says why not Ink's own diff).
            stdout: frames as unknown as NodeJS.WriteStream,
            debug: true,
            stderr: io.stderr as NodeJS.WriteStream,
            exitOnCtrlC: false,
            patchConsole: false,
            // Debug mode renders unthrottled: streaming is already batched into frames by
            // the store hook's own clock, and a keystroke's frame is not delayed (bench/echo).
          });
          instance = shown;
          // Ink redraws its last tree when the terminal resizes, from a listener it added
          // when it was created: a frame at the old size, in the new terminal. Heard first,
          // this renders the tree again at once (rerender is synchronous; the tree reads the
          // size from stdout), so Ink's redraw already has the new size.
          const onResize = (): void => {
            if (instance === shown) shown.rerender(build(finish));
          };
          io.stdout.prependListener('resize', onResize);
          stopResize = () => io.stdout.off('resize', onResize);
          // Ink exiting on its own (not through `finish`) ends the session.
          instance.waitUntilExit().then(
            () => !settled && session.end(0),
            (err: unknown) => session.end(1, err),
          );
        } catch (err) {
          session.end(1, err);
        }
      });
    },
    clearScreen() {
      if (endedWith !== undefined) return;
      io.stdout.write(CLEAR_SCREEN);
      frames.invalidate();
    },
    setMouse(on) {
      terminal.setMouse(on);
    },
    between() {
      if (endedWith !== undefined) return;
      io.stdout.write(CLEAR_SCREEN);
      frames.invalidate();
      terminal.holdRawMode();
    },
    end(code, error) {
      if (endedWith !== undefined) return;
      endedWith = code;
      for (const [event, h] of handlers) io.proc.off(event, h);
      unmount();
      frames.close();
      terminal.restore();
      if (error !== undefined) io.stderr.write(`${io.describeCrash(error)}\n`);
      pending?.({ ended: true, code });
    },
  };

  const on = (event: string, h: (...args: unknown[]) => void): void => {
    handlers.push([event, h]);
    io.proc.on(event, h);
  };
  for (const [signal, code] of Object.entries(SIGNAL_CODES)) on(signal, () => session.end(code));
  on('uncaughtException', (err) => session.end(1, err));
  on('unhandledRejection', (reason) => session.end(1, reason ?? 'unhandled rejection'));
  // The last resort: whatever ends the process, the screen comes back.
  on('exit', () => terminal.restore());
  terminal.enter();
  // Raw at once, not when the first tree's input hook mounts (after its first frame): a key
  // typed in between would be echoed by the terminal onto a row the frame writer never
  // repaints (bench/tornFrames.ts saw it on the key-hint row).
  terminal.holdRawMode();
  return session;
}
