/**
 * One stay in the alternate screen, which may show several Ink trees in turn (the setup
 * wizard, then the app). The screen is entered once and restored exactly once, whatever
 * ends the stay: the last tree finishing, a signal, an uncaught error.
 */
import React from 'react';
import { render as inkRender } from 'ink';
import { FrameWriter, type FrameTarget } from './frameWriter.js';
import { RowPainterContext } from './rowPainter.js';
import { DisposerStack, stopFailureLine } from '../../src/app/disposers.js';
import { CLEAR_SCREEN, createTerminalGuard } from './terminalGuard.js';
import { inkDoor, installFastOutput, type InkDoor } from './inkInternals.js';
import { boundInkTextCaches } from './inkTextCaches.js';
import { sweepRenderMeasures } from './renderMeasures.js';
import {
  createFocusState,
  FOCUS_REPORTING_OFF,
  FOCUS_REPORTING_ON,
  FocusReportContext,
  type FocusState,
} from './focusReporting.js';

type Emitter = Pick<NodeJS.EventEmitter, 'on' | 'off'>;

export interface ScreenSessionDeps {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WritableStream;
  /** Where signals and uncaught errors are heard (the process). */
  proc: Emitter;
  /** The line printed after the screen is restored when a crash ended the session. */
  describeCrash(error: unknown): string;
  /** The door into Ink's internals (tests pass another version's); default: the real one. */
  inkDoor?: InkDoor;
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
  /**
   * Lends the terminal to another program (an editor) for the time `meanwhile` runs, which must
   * be synchronous (nothing is drawn): raw mode, mouse and focus reporting off, the
   * normal screen back; then the alternate screen again and the last frame painted whole.
   */
  lend<T>(meanwhile: () => T): T;
  /** Mouse reporting on or off (the setting and Ctrl+S); off again whatever ends the session. */
  setMouse(on: boolean): void;
  /** Unmounts, leaves the alternate screen (once), stops listening, then prints any error. */
  end(code: number, error?: unknown): void;
  /** Whether the terminal has focus (reporting is on for the whole stay). */
  readonly focus: FocusState;
}

/** Exit codes for the signals: 128 + the signal's number, as shells report them. */
const SIGNAL_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/**
 * Enters the alternate screen and starts listening for signals and crashes. What the stay
 * turns on (the screen modes, the frame writer, the listeners) registers its undo on one
 * disposer stack as it starts; `end` closes it, so the terminal comes back whatever ends the
 * stay. The stops are synchronous: the screen is restored before `end` returns.
 */
export function openScreenSession(io: ScreenSessionDeps): ScreenSession {
  // Before the first frame: Ink's output step, with its work kept from frame to frame (only on
  // the Ink it was written for; on another, runTui shows the door's notice).
  const door = io.inkDoor ?? inkDoor();
  installFastOutput(process.env, door);
  // Ink's measure and wrap caches keep every text ever drawn: bounded for a day-long screen.
  boundInkTextCaches(door);
  const terminal = createTerminalGuard(io.stdout, io.stdin);
  let endedWith: number | undefined;
  const frames = new FrameWriter(gatedTarget(io.stdout, () => endedWith === undefined));
  const stack = new DisposerStack((failure) => {
    try {
      io.stderr.write(stopFailureLine(failure));
    } catch {
      // stderr gone too: nothing left to tell.
    }
  });
  const tree = createTreeHost(io, frames);
  const focus = createFocusState();

  const session: ScreenSession = {
    show(build) {
      if (endedWith !== undefined) return Promise.resolve({ ended: true, code: endedWith });
      const reporting = (finish: Parameters<typeof build>[0]): React.ReactElement =>
        React.createElement(FocusReportContext.Provider, { value: focus.report }, build(finish));
      return tree.show(reporting, (code, error) => session.end(code, error));
    },
    focus,
    clearScreen() {
      if (endedWith !== undefined) return;
      io.stdout.write(CLEAR_SCREEN);
      frames.invalidate();
    },
    lend(meanwhile) {
      if (endedWith !== undefined) return meanwhile();
      const focusing = focus.attached;
      if (focusing) io.stdout.write(FOCUS_REPORTING_OFF);
      terminal.stepAside();
      try {
        return meanwhile();
      } finally {
        terminal.comeBack();
        if (focusing) io.stdout.write(FOCUS_REPORTING_ON);
        frames.repaint();
      }
    },
    setMouse(on) {
      // Mouse reports are taken out of the keys from Ink's raw input (useKeys.ts): on an Ink
      // whose raw input the door does not open, a wheel turn would be typed as text.
      terminal.setMouse(on && door.supported);
    },
    between() {
      session.clearScreen();
      terminal.holdRawMode();
    },
    end(code, error) {
      if (endedWith !== undefined) return;
      endedWith = code;
      tree.unmount();
      void stack.close();
      if (error !== undefined) io.stderr.write(`${io.describeCrash(error)}\n`);
      tree.ended(code);
    },
  };

  terminal.enter({ paste: door.supported });
  // Raw at once, not when the first tree's input hook mounts (after its first frame): a key
  // typed in between would be echoed by the terminal onto a row the frame writer never
  // repaints (bench/tornFrames.ts saw it on the key-hint row).
  terminal.holdRawMode();
  // Leaves the screen with mouse reporting and bracketed paste off and the cursor shown.
  stack.defer('the terminal modes', () => terminal.restore());
  stack.defer('focus reporting', focus.start(io.stdout));
  stack.defer('the frame writer', () => frames.close());
  // React's development build records a performance measure per render; Node keeps them all.
  stack.defer('the render measure sweep', sweepRenderMeasures());
  stack.defer('the signal listeners', listenForEndings(io.proc, session, terminal));
  return session;
}

/**
 * The terminal as the frame writer sees it: once the stay has ended nothing more reaches it.
 * A tree unmounted from inside its own effect (the quit key's exit) paints its last frame
 * after the unmount returns, which would otherwise land on the restored screen.
 */
function gatedTarget(stdout: NodeJS.WriteStream, open: () => boolean): FrameTarget {
  return {
    write: (chunk) => open() && stdout.write(chunk),
    get columns() {
      return stdout.columns;
    },
    get rows() {
      return stdout.rows;
    },
    on: (event, listener) => stdout.on(event, listener),
    off: (event, listener) => stdout.off(event, listener),
  };
}

/** Ends the session on a signal or a crash; returns the undo that stops listening. */
function listenForEndings(
  proc: Emitter,
  session: ScreenSession,
  terminal: { restore(): void },
): () => void {
  const handlers: [string, (...args: unknown[]) => void][] = [];
  const on = (event: string, h: (...args: unknown[]) => void): void => {
    handlers.push([event, h]);
    proc.on(event, h);
  };
  for (const [signal, code] of Object.entries(SIGNAL_CODES)) on(signal, () => session.end(code));
  on('uncaughtException', (err) => session.end(1, err));
  on('unhandledRejection', (reason) => session.end(1, reason ?? 'unhandled rejection'));
  // The last resort: whatever ends the process, the screen comes back.
  on('exit', () => terminal.restore());
  return () => {
    for (const [event, h] of handlers) proc.off(event, h);
  };
}

/** The Ink tree shown now (one at a time) and the promise of its `show`. */
interface ShownTree {
  show<T>(
    build: (finish: (value: T) => void) => React.ReactElement,
    end: (code: number, error?: unknown) => void,
  ): Promise<Shown<T>>;
  /** Unmounts the tree shown now, if any (a crashed tree's unmount may throw: ignored). */
  unmount(): void;
  /** The session ended: the pending `show` resolves with its code. */
  ended(code: number): void;
}

function createTreeHost(io: ScreenSessionDeps, frames: FrameWriter): ShownTree {
  let instance: ReturnType<typeof inkRender> | undefined;
  let stopResize: (() => void) | undefined;
  let pending: ((shown: Shown<never>) => void) | undefined;

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

  return {
    unmount,
    ended: (code) => pending?.({ ended: true, code }),
    show<T>(
      build: (finish: (value: T) => void) => React.ReactElement,
      end: (code: number, error?: unknown) => void,
    ): Promise<Shown<T>> {
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
          const shown = renderTree(io, frames, build(finish));
          instance = shown;
          stopResize = followResize(io.stdout, () => {
            if (instance === shown) shown.rerender(build(finish));
          });
          // Ink exiting on its own (not through `finish`) ends the session.
          shown.waitUntilExit().then(
            () => !settled && end(0),
            (err: unknown) => end(1, err),
          );
        } catch (err) {
          end(1, err);
        }
      });
    },
  };
}

function renderTree(
  io: ScreenSessionDeps,
  frames: FrameWriter,
  tree: React.ReactElement,
): ReturnType<typeof inkRender> {
  // The tree may paint rows between frames (the keystroke echo) through the same writer.
  const painted = React.createElement(RowPainterContext.Provider, { value: frames }, tree);
  return inkRender(painted, {
    stdin: io.stdin,
    // Ink hands each frame whole to the writer, which writes only the rows that changed, in
    // one write (frameWriter.ts says why not Ink's own diff).
    stdout: frames as unknown as NodeJS.WriteStream,
    debug: true,
    stderr: io.stderr as NodeJS.WriteStream,
    exitOnCtrlC: false,
    patchConsole: false,
    // Debug mode renders unthrottled: streaming is already batched into frames by the store
    // hook's own clock, and a keystroke's frame is not delayed (bench/echo).
  });
}

/**
 * Ink redraws its last tree when the terminal resizes, from a listener it added when it was
 * created: a frame at the old size, in the new terminal. Heard first, this renders the tree
 * again at once (rerender is synchronous; the tree reads the size from stdout), so Ink's
 * redraw already has the new size. Returns the undo.
 */
function followResize(stdout: NodeJS.WriteStream, rerender: () => void): () => void {
  stdout.prependListener('resize', rerender);
  return () => stdout.off('resize', rerender);
}
