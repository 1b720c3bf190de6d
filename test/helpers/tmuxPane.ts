/**
 * Driving the real program in tmux, for the end-to-end files: one tmux server per file (its
 * own `-L` socket, so files running side by side never share one), reading a window's screen,
 * typing into it, and waiting for the screen to show something, with the screen in the failure.
 * The files keep their own guard (tmuxGuard.ts) and their own set-up of what runs in the pane.
 */
import { execFileSync } from 'node:child_process';
import { waitUntil } from './waitFor.js';

/** How long to wait for a screen, and how often to look. */
export interface ScreenWait {
  timeoutMs?: number;
  intervalMs?: number;
}

/** A tmux server's windows, each named. */
export interface TmuxWindows {
  /** Runs `tmux -L <socket> ...args` and returns what it printed. */
  tmux(...args: string[]): string;
  screen(window: string): string;
  keys(window: string, ...keys: string[]): string;
  /** Resolves with the screen once `ok` holds for it; fails with the last screen seen. */
  waitForScreen(
    window: string,
    ok: (screen: string) => boolean,
    what: string,
    wait?: ScreenWait,
  ): Promise<string>;
}

export function tmuxWindows(socket: string, defaults: ScreenWait = {}): TmuxWindows {
  const tmux = (...args: string[]): string =>
    execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  const screen = (window: string): string => tmux('capture-pane', '-p', '-t', window);
  return {
    tmux,
    screen,
    keys: (window, ...keys) => tmux('send-keys', '-t', window, ...keys),
    waitForScreen: (window, ok, what, wait = {}) => {
      let last = '';
      return waitUntil(() => ok((last = screen(window))) && last, what, {
        timeoutMs: wait.timeoutMs ?? defaults.timeoutMs ?? 30_000,
        intervalMs: wait.intervalMs ?? defaults.intervalMs ?? 50,
        detail: () => `Screen ${window}:\n${last}`,
      });
    },
  };
}

/** One window of a tmux server, for the files that run the program in a single pane. */
export interface TmuxPane {
  tmux(...args: string[]): string;
  screen(): string;
  keys(...keys: string[]): string;
  waitForScreen(ok: (screen: string) => boolean, what: string, wait?: ScreenWait): Promise<string>;
}

export function tmuxPane(socket: string, window = 'app', defaults: ScreenWait = {}): TmuxPane {
  const w = tmuxWindows(socket, defaults);
  return {
    tmux: w.tmux,
    screen: () => w.screen(window),
    keys: (...keys) => w.keys(window, ...keys),
    waitForScreen: (ok, what, wait) => w.waitForScreen(window, ok, what, wait),
  };
}

/** `s` as one word for the shell tmux runs the pane's command with. */
export const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
