/**
 * Notifications while the full-screen app is shown: the terminal's own (OSC 9 / 777 / BEL)
 * when the terminal reported that it lost focus, the desktop's too with `notify.desktop`;
 * nothing while the user looks at the screen (src/notify/notifier.ts decides).
 */
import { attachNotifier, type NotifiedAgent } from '../src/notify/attach.js';
import { notifySchema, type NotifySettings } from '../src/config/notifySchema.js';
import { createTerminalChannel } from '../src/notify/terminalChannel.js';
import type { ScreenSession } from './terminal/screenSession.js';

export interface ScreenNotifierOptions {
  agent: NotifiedAgent;
  /** The `notify` settings; absent (an app built without them): the defaults. */
  config: NotifySettings | undefined;
  workspace: string;
  session: Pick<ScreenSession, 'focus'>;
  stdout: { write(chunk: string): unknown };
  env: NodeJS.ProcessEnv;
  /**
   * `false` for a screen attached to a background agent: the agent sends the desktop's
   * notification itself, so the screen writes only the terminal's (one per event).
   */
  desktop?: boolean;
}

/** Starts notifying for the screen's agent; returns the undo. */
export function notifyOnScreen(opts: ScreenNotifierOptions): () => void {
  const { focus } = opts.session;
  const channel = createTerminalChannel({
    // Once the screen has been left, nothing more is written to the user's shell.
    write: (chunk) => focus.attached && opts.stdout.write(chunk),
    env: opts.env,
  });
  const { detach } = attachNotifier(opts.agent, {
    config: opts.config ?? notifySchema.parse({}),
    screen: { focused: () => focus.focused, channel },
    env: opts.env,
    workspace: opts.workspace,
    ...(opts.desktop === false ? { desktop: false } : {}),
  });
  return detach;
}
