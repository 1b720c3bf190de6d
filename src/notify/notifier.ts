import type { AgentEvent } from '../api/events.js';
import type { NotifySettings } from '../config/notifySchema.js';
import {
  createEventReader,
  stoppedNotification,
  type Notification,
  type NotifyChannel,
} from './notification.js';
import { isQuiet, parseQuietHours } from '../config/quietHours.js';

/**
 * Screens attached to a background agent over its socket, as their `screen` messages tell
 * it: none, at least one focused (the user is looking), or only unfocused ones (each writes
 * its own terminal notification).
 */
export type ScreenPresence = 'none' | 'focused' | 'unfocused';

/** The full-screen app, when one is attached to the agent. */
export interface AttachedScreen {
  /** The terminal reported focus-in (or never reported anything): the user is looking. */
  focused(): boolean;
  /** The terminal's own notification (OSC 9 / 777, else BEL). */
  channel: NotifyChannel;
}

export interface NotifierOptions {
  config: NotifySettings;
  /** The in-process full-screen app; absent for a background agent. */
  screen?: AttachedScreen;
  /** A background agent: the screens attached over its socket (absent: never any). */
  remoteScreens?(): ScreenPresence;
  /** The desktop's notifier or the user's `notify.command` (desktopChannel.ts). */
  desktop?: NotifyChannel;
  /** Told once per channel when it fails, to show as a notice; never throws. */
  onFailure(text: string): void;
  /** Local time now (quiet hours); default the clock. */
  now?(): Date;
}

export interface Notifier {
  /** Feed every agent event (subscribe it to the agent). */
  handle(event: AgentEvent): void;
  /** A background agent stopped on an error: tell the user, who is not watching. */
  stopped(reason: string): void;
  /** Resolves when every send started so far has finished (tests, shutdown). */
  settled(): Promise<void>;
}

/** Keys remembered for "once per event"; older ones can no longer recur. */
const KEYS_KEPT = 500;

/**
 * Decides which agent events reach the user and by which channel: once per occurrence,
 * only kinds switched on, never in quiet hours, never while the user looks at the screen.
 * With a screen attached and unfocused the terminal notifies (and the desktop too with
 * `notify.desktop`); with no screen, the desktop or the user's command does. A background
 * agent's screens attached over the socket count the same way (their terminal notification
 * is their own: the agent adds only the desktop's, with `notify.desktop`).
 */
export function createNotifier(opts: NotifierOptions): Notifier {
  const now = opts.now ?? (() => new Date());
  const reader = createEventReader(() => now().getTime());
  const quiet = opts.config.quietHours ? parseQuietHours(opts.config.quietHours) : undefined;
  const seen = new Set<string>();
  const failed = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  /**
   * Each channel's last send: the next one starts after it, so notifications arrive in the
   * order things happened (an approval before the pause that followed it), never racing
   * each other's processes. A send is bounded (desktopChannel's timeout), so none blocks.
   */
  const tails = new Map<NotifyChannel, Promise<void>>();

  // One notification per event: a screen that is not focused writes the terminal's own, so
  // the desktop's comes on top of it only when the user asked for both (`notify.desktop`).
  const channelsFor = (): NotifyChannel[] => {
    const desktop = opts.desktop ? [opts.desktop] : [];
    const alsoDesktop = opts.config.desktop ? desktop : [];
    if (opts.screen) return opts.screen.focused() ? [] : [opts.screen.channel, ...alsoDesktop];
    const remote = opts.remoteScreens?.() ?? 'none';
    if (remote === 'focused') return [];
    return remote === 'unfocused' ? alsoDesktop : desktop;
  };

  const deliver = (channel: NotifyChannel, n: Notification): void => {
    const send = (): Promise<void> => {
      try {
        return channel.send(n);
      } catch (err) {
        return Promise.reject(err);
      }
    };
    const before = tails.get(channel);
    const sending = before ? before.then(send) : send();
    const done = sending
      .catch((err: unknown) => {
        if (failed.has(channel.name)) return;
        failed.add(channel.name);
        const why = err instanceof Error ? err.message : String(err);
        try {
          opts.onFailure(`Notification by ${channel.name} failed: ${why}`);
        } catch {
          // The notice could not be shown either; notifying must never take the agent down.
        }
      })
      .finally(() => {
        inFlight.delete(done);
        if (tails.get(channel) === done) tails.delete(channel);
      });
    inFlight.add(done);
    tails.set(channel, done);
  };

  const notify = (n: Notification): void => {
    if (seen.has(n.key) || !opts.config.kinds[n.kind]) return;
    seen.add(n.key);
    if (seen.size > KEYS_KEPT) seen.delete(seen.values().next().value!);
    if (quiet && isQuiet(quiet, new Date(n.at))) return;
    for (const channel of channelsFor()) deliver(channel, n);
  };

  return {
    handle(event) {
      const n = reader.read(event);
      if (n) notify(n);
    },
    stopped(reason) {
      notify(stoppedNotification(reason, now().getTime()));
    },
    async settled() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}
