/**
 * A screen's end of the socket (issue #27, "screens attach"): finds the folder's background
 * agent the way `status` does, connects, asks `attach` (the agent's snapshot, and every
 * event after it with none between), and keeps a mirror of the agent's store that follows
 * each event. Commands go back over the same connection as plain data. Nothing here knows
 * about a screen: the full-screen app (components/runAttached.tsx) renders the mirror.
 */
import { createPathIndex, type PathIndex } from '../agent/mentionPaths.js';
import { ownPlaces } from '../safety/ownPlaces.js';
import type { AgentCommand } from '../api/commands.js';
import type { AgentEvent } from '../api/events.js';
import { Listeners } from '../core/listeners.js';
import { createMirrorStore, type AgentSnapshot, type AgentStore } from '../store/agentStore.js';
import type { LoadedConfig } from '../config/load.js';
import { appPaths } from '../config/paths.js';
import { sessionChoices, type SessionChoice } from '../history/sessionChoices.js';
import { SessionStore } from '../history/index.js';
import { entryIdentity, readEntry, type RegistryEntry } from './registry.js';
import { connectAgent, type AgentConnection } from './socketClient.js';
import { resolveFolder, type DaemonDeps } from './startCommand.js';

/** A folder's running background agent, and the language its config asks for. */
export interface BackgroundAgent {
  entry: RegistryEntry;
  language: LoadedConfig['language'];
  /** The user's notification settings (kinds, quiet hours) for the screen's own notices. */
  notify?: LoadedConfig['notify'];
  /**
   * The folder's sessions for the attached screen's `/resume` picker, read from the home
   * (none is marked open now: the agent may have switched since it started).
   */
  listSessions?(): Promise<SessionChoice[]>;
  /** Workspace paths for an `@` mention typed in the attached screen. */
  findPaths?(query: string): Promise<string[]>;
  /** Connects to the agent and mirrors it (`attachTo` of `entry`). */
  attach?(): Promise<Attachment>;
}

/**
 * The folder's background agent, if one runs there (found as `status` finds it: the
 * registry, and a live pid that is still the agent's); otherwise undefined, and the screen
 * starts its own agent.
 */
export function findBackgroundAgent(
  flags: { workspace?: string | undefined; home?: string | undefined },
  io: Pick<DaemonDeps, 'env' | 'cwd'>,
): BackgroundAgent | undefined {
  const folder = resolveFolder(flags, { ...io, stdout: process.stdout, stderr: process.stderr });
  if (!folder.ok) return undefined;
  const entry = readEntry(folder.home, folder.workspace);
  // A pid that now names a stranger (the agent died, its pid reused) is no agent.
  if (!entry || entryIdentity(entry) === 'gone') return undefined;
  const store = new SessionStore(appPaths(folder.home).data, { workspace: folder.workspace });
  let paths: Promise<PathIndex> | undefined;
  return {
    entry,
    language: folder.config.language,
    notify: folder.config.notify,
    listSessions: async () => sessionChoices(await store.list(), ''),
    findPaths: async (query) => {
      // The screen's own index, opened at the first `@`: the agent runs in another process.
      paths ??= (async () => {
        const { openWorkspace } = await import('../app/createApp.js');
        const workspace = await openWorkspace(folder.workspace, folder.home, undefined);
        return createPathIndex({
          workspace,
          ignore: folder.config.watch.ignore,
          hidden: ownPlaces(folder.home).homeItems,
        });
      })();
      return (await paths).candidates(query);
    },
    attach: () => {
      const attaching = attachTo(entry);
      // Awaited by the screen once its code has loaded; until then a refusal is not unhandled.
      attaching.catch(() => undefined);
      return attaching;
    },
  };
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
  const listeners = new Listeners<[AgentEvent]>();
  let left = false;
  /** Why this end gave up on the connection, if it did (a resync that failed). */
  let gaveUp: string | undefined;
  let end!: (v: { left: true } | { left: false; why: string }) => void;
  const ended = new Promise<{ left: true } | { left: false; why: string }>((r) => (end = r));
  const conn = await connectAgent(entry.socket, 3000);
  const resync = readAgain(conn, built, (why) => {
    gaveUp = why;
    conn.close();
  });
  const take = (event: AgentEvent): void => {
    try {
      built.store?.getState().follow(event);
    } catch (err) {
      // The mirror cannot follow (it missed an event): read the agent's state again.
      resync(`the screen could not follow an event (${String(err)})`);
    }
    listeners.emit(event);
  };
  // A refused command (an interrupt that met a turn already ended, say) is not shown, as on
  // the in-process screen: what the agent did shows in its events. A refused answer is: the
  // user pressed a key for a card that was no longer the one waiting, and must know it did
  // nothing (the agent's view moved on while this screen lagged).
  conn.onEvent((e) => take(e as AgentEvent));
  conn.onRefusal((message) => {
    if (!message.startsWith('answer_approval')) return;
    const text = `Your answer was not applied: ${message.replace(/^answer_approval: /, '')}.`;
    built.store?.getState().follow({ type: 'notice', level: 'warn', text });
  });
  conn.onProblem((problem) => resync(problem));
  conn.onClose((why) => end(left ? { left: true } : { left: false, why: gaveUp ?? why }));
  let reply: { snapshot?: AgentSnapshot };
  try {
    // The mirror is built as the reply is read, so the events right behind it find it.
    reply = (await conn.request('attach', ATTACH_TIMEOUT_MS, (r) => {
      const { snapshot } = r as { snapshot?: AgentSnapshot };
      if (snapshot) built.store = createMirrorStore(snapshot);
    })) as { snapshot?: AgentSnapshot };
  } catch (err) {
    conn.close();
    throw err;
  }
  const mirror = built.store;
  if (!reply.snapshot || !mirror) {
    conn.close();
    throw new Error('the agent answered attach without its state: use the cogito that started it');
  }
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

/**
 * A mirror that missed an event (a line it could not read) no longer matches the agent: it is
 * set to a new snapshot, and the screen says so. Events read before the snapshot's reply are
 * inside it; those after follow it. Returns the trigger (one resync at a time); a snapshot
 * that does not come ends the attachment through `giveUp`.
 */
function readAgain(
  conn: AgentConnection,
  built: { store?: AgentStore },
  giveUp: (why: string) => void,
): (problem: string) => void {
  let busy = false;
  return (problem) => {
    if (busy || !built.store) return;
    busy = true;
    const store = built.store;
    conn
      .request('snapshot', ATTACH_TIMEOUT_MS, (snapshot) => {
        store.setState(structuredClone(snapshot as AgentSnapshot));
        store.getState().follow({
          type: 'notice',
          level: 'warn',
          text: `A message from the agent could not be read (${problem}); the screen read the agent's state again.`,
        });
      })
      .then(
        () => (busy = false),
        (err: unknown) =>
          giveUp(`${problem}, and the agent's state could not be read again: ${String(err)}`),
      );
  };
}
