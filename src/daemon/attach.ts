/**
 * A screen's end of the socket (issue #27, "screens attach"): finds the folder's background
 * agent the way `status` does, connects, asks `attach` (the agent's snapshot, and every
 * event after it with none between), and keeps a mirror of the agent's store that follows
 * each event. Commands go back over the same connection as plain data. Nothing here knows
 * about a screen: the full-screen app (components/runAttached.tsx) renders the mirror.
 */
import type { AgentCommand } from '../api/commands.js';
import type { AgentEvent } from '../api/events.js';
import { Listeners } from '../core/listeners.js';
import { createMirrorStore, type AgentSnapshot, type AgentStore } from '../store/agentStore.js';
import type { LoadedConfig } from '../config/load.js';
import { entryIdentity, readEntry, type RegistryEntry } from './registry.js';
import { connectAgent } from './socketClient.js';
import { resolveFolder, type DaemonIo } from './startCommand.js';

/** A folder's running background agent, and the language its config asks for. */
export interface BackgroundAgent {
  entry: RegistryEntry;
  language: LoadedConfig['language'];
  /** The user's notification settings (kinds, quiet hours) for the screen's own notices. */
  notify?: LoadedConfig['notify'];
}

/**
 * The folder's background agent, if one runs there (found as `status` finds it: the
 * registry, and a live pid that is still the agent's); otherwise undefined, and the screen
 * starts its own agent.
 */
export function findBackgroundAgent(
  flags: { workspace?: string | undefined; home?: string | undefined },
  io: Pick<DaemonIo, 'env' | 'cwd'>,
): BackgroundAgent | undefined {
  const folder = resolveFolder(flags, { ...io, stdout: process.stdout, stderr: process.stderr });
  if (!folder.ok) return undefined;
  const entry = readEntry(folder.home, folder.workspace);
  // A pid that now names a stranger (the agent died, its pid reused) is no agent.
  if (!entry || entryIdentity(entry) === 'gone') return undefined;
  return { entry, language: folder.config.language, notify: folder.config.notify };
}

/** A live attachment: the mirrored store, the agent's door, and the ways to leave. */
export interface Attachment {
  readonly entry: RegistryEntry;
  /** Mirrors the agent's store: its snapshot at attach, then every event. */
  readonly store: AgentStore;
  /** Sends a command over the socket (it runs in the agent). */
  send(command: AgentCommand): void;
  /** The agent's events as they arrive (after the mirror applied them); returns the undo. */
  subscribe(listener: (event: AgentEvent) => void): () => void;
  /** Tells the agent whether this screen's terminal has focus (it then notifies, or not). */
  focus(focused: boolean): void;
  /** Leaves the agent running: closes this connection only. */
  detach(): void;
  /** Asks the agent to stop (`/exit`, the quit keys); resolves once it said it will. */
  stop(): Promise<void>;
  /**
   * Resolves when the connection ends: `left` when this screen closed it, otherwise why
   * it broke (the agent stopped or died).
   */
  readonly ended: Promise<{ left: true } | { left: false; why: string }>;
}

/** How long the agent has to answer `attach` (it sends its whole display state). */
const ATTACH_TIMEOUT_MS = 10_000;

/** Connects to `entry`'s agent and mirrors it; rejects with a message naming the problem. */
export async function attachTo(entry: RegistryEntry): Promise<Attachment> {
  const built: { store?: AgentStore } = {};
  // Events that arrive in the same read as the reply, before the store is built from it.
  const early: AgentEvent[] = [];
  const listeners = new Listeners<[AgentEvent]>();
  let left = false;
  let end!: (v: { left: true } | { left: false; why: string }) => void;
  const ended = new Promise<{ left: true } | { left: false; why: string }>((r) => (end = r));
  const conn = await connectAgent(entry.socket, 3000);
  const take = (event: AgentEvent): void => {
    if (built.store) built.store.getState().follow(event);
    else early.push(event);
    listeners.emit(event);
  };
  // A refused command (an interrupt that met a turn already ended, say) is not shown, as on
  // the in-process screen: what the agent did shows in its events.
  conn.onEvent((e) => take(e as AgentEvent));
  conn.onClose((why) => end(left ? { left: true } : { left: false, why }));
  let reply: { snapshot?: AgentSnapshot };
  try {
    reply = (await conn.request('attach', ATTACH_TIMEOUT_MS)) as { snapshot?: AgentSnapshot };
  } catch (err) {
    conn.close();
    throw err;
  }
  if (!reply.snapshot) {
    conn.close();
    throw new Error('the agent answered attach without its state: use the cogito that started it');
  }
  const mirror = createMirrorStore(reply.snapshot);
  for (const e of early.splice(0)) mirror.getState().follow(e);
  built.store = mirror;
  return {
    entry,
    store: mirror,
    send: (command) => conn.post(command),
    subscribe: (listener) => listeners.subscribe(listener),
    focus: (focused) => conn.screen(focused),
    detach: () => {
      left = true;
      conn.close();
    },
    stop: async () => {
      left = true;
      try {
        await conn.request('stop', 3000);
      } finally {
        conn.close();
      }
    },
    ended,
  };
}
