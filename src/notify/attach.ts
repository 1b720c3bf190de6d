import type { AgentCommand } from '../api/commands.js';
import type { AgentListener } from '../api/events.js';
import type { NotifySettings } from '../config/notifySchema.js';
import { createDesktopChannel } from './desktopChannel.js';
import {
  createNotifier,
  type AttachedScreen,
  type Notifier,
  type ScreenPresence,
} from './notifier.js';

/** What the notifier needs of the agent: its events, and a way to show a failure. */
export interface NotifiedAgent {
  subscribe(listener: AgentListener): () => void;
  send(command: AgentCommand): unknown;
}

export interface AttachOptions {
  config: NotifySettings;
  /** The full-screen app when attached; absent for a background agent. */
  screen?: AttachedScreen;
  /** A background agent: the screens attached over its socket and their focus. */
  remoteScreens?(): ScreenPresence;
  /**
   * `false`: never the desktop's notification, because another process sends it: a screen
   * attached to a background agent leaves it to the agent (one notification per event).
   */
  desktop?: boolean;
  /** The environment the desktop notifier runs in (PATH finds it). */
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  workspace?: string;
  now?(): Date;
}

/**
 * Starts notifying for one agent: the desktop channel built from the config, the notifier
 * subscribed to the agent's events, a failed channel reported once as a warning notice.
 * Returns the notifier and the undo that unsubscribes it.
 */
export function attachNotifier(
  agent: NotifiedAgent,
  opts: AttachOptions,
): { notifier: Notifier; detach(): void } {
  const desktop = createDesktopChannel({
    config: opts.config,
    ...(opts.platform ? { platform: opts.platform } : {}),
    ...(opts.env ? { env: opts.env } : {}),
    ...(opts.workspace ? { workspace: opts.workspace } : {}),
  });
  const notifier = createNotifier({
    config: opts.config,
    ...(opts.desktop === false ? {} : { desktop }),
    ...(opts.screen ? { screen: opts.screen } : {}),
    ...(opts.remoteScreens ? { remoteScreens: opts.remoteScreens } : {}),
    ...(opts.now ? { now: opts.now } : {}),
    // Later, from the send's promise: never inside the event that is being emitted.
    onFailure: (text) => agent.send({ type: 'notice', level: 'warn', text }),
  });
  const detach = agent.subscribe((event) => notifier.handle(event));
  return { notifier, detach };
}
