/**
 * Renders the whole screen with a fake controller at a fixed size, and types into it the way
 * a terminal would (escape sequences for arrows, control bytes for Ctrl+letters).
 */
import React from 'react';
import { render } from 'ink-testing-library';
import { App, type AppProps } from '../../components/App.js';
import { createFakeController, type FakeController } from './fakeController.js';
import { plain, waitFor, waitForFrame } from './waitForFrame.js';

export const KEY = {
  enter: '\r',
  esc: '\x1b',
  tab: '\t',
  shiftTab: '\x1b[Z',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  pgUp: '\x1b[5~',
  pgDn: '\x1b[6~',
  home: '\x1b[H',
  end: '\x1b[F',
  backspace: '\x7f',
  f1: '\x1bOP',
  altEnter: '\x1b\r',
  /** Ctrl+letter, e.g. ctrl('p') → "\x10". */
  ctrl: (c: string): string => String.fromCharCode(c.toLowerCase().charCodeAt(0) - 96),
} as const;

export interface Harness {
  c: FakeController;
  frame(): string;
  /** Every frame written so far, without colour codes. */
  frames(): string[];
  /** Sends raw terminal input (one chunk, as one read). */
  press(...chunks: string[]): void;
  /** Types text one key at a time, as a person would. */
  type(text: string): void;
  waitFor(predicate: (frame: string) => boolean): Promise<string>;
  /** Waits until the controller has received `n` calls in all. */
  waitForCalls(n: number): Promise<void>;
  rerender(props: Partial<AppProps>): void;
  unmount(): void;
  exits: number;
  redraws: number;
}

export async function renderApp(
  props: Partial<AppProps> & { c?: FakeController } = {},
): Promise<Harness> {
  const c = props.c ?? createFakeController();
  let current: AppProps = {
    controller: c,
    columns: 100,
    rows: 30,
    workspace: '/work/notes',
    complete: (p: string) =>
      ['/help', '/pause', '/persona', '/resume'].filter((x) => x.startsWith(p)),
    ...props,
  };
  const h: Harness = {
    c,
    exits: 0,
    redraws: 0,
    frame: () => plain(r.lastFrame()),
    frames: () => r.frames.map((f) => plain(f)),
    press: (...chunks) => {
      for (const chunk of chunks) r.stdin.write(chunk);
    },
    type: (text) => {
      for (const ch of text) r.stdin.write(ch);
    },
    waitFor: (predicate) => waitForFrame(r.lastFrame, predicate),
    waitForCalls: (n) =>
      waitFor(() => c.calls.length >= n, `${n} controller calls (have ${c.methods().join(', ')})`),
    rerender: (next) => {
      current = { ...current, ...next };
      r.rerender(<App {...current} />);
    },
    unmount: () => r.unmount(),
  };
  current.onExit ??= () => {
    h.exits += 1;
  };
  current.onRedraw ??= () => {
    h.redraws += 1;
  };
  const r = render(<App {...current} />);
  // Keys can be sent once the input hook has put stdin in raw mode (an effect after mount).
  await waitFor(() => r.stdin.listenerCount('readable') > 0, 'the input hook to subscribe');
  await waitForFrame(r.lastFrame, (f) => f.length > 0);
  return h;
}
