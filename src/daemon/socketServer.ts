/**
 * The background agent's end of the socket: listens on a Unix domain socket (no TCP), greets
 * every client with a hello, answers requests, passes commands to the agent and forwards its
 * events to subscribed clients. A bad line gets an error line; nothing a client sends can
 * crash the agent.
 */
import fs from 'node:fs';
import net from 'node:net';
import type { AgentDoor, DoorEvent } from './agentPort.js';
import { encodeFrames, LineSplitter } from './frames.js';
import {
  parseClientLine,
  PROTOCOL_VERSION,
  type AgentStatus,
  type ClientMessage,
  type RequestMethod,
  type ServerMessage,
} from './protocol.js';
import { prepareSocketDir } from './places.js';
import type { ScreenPresence } from '../notify/notifier.js';
import { invokedAs } from '../core/invokedAs.js';

/**
 * A client that reads slower than this much queued output stops getting the streamed pieces
 * of a reply (`message_update`, `reasoning_delta`: the finished message carries the whole text
 * anyway), so a burst of them (a 1.2 MB reply is some 300,000 pieces) does not pile up.
 */
const MAX_QUEUED_BYTES = 8 * 1024 * 1024;
/**
 * A client whose queue passes this (on top of big messages still draining) is dropped, so
 * memory stays flat. A single message bigger than that (a snapshot of a long session) is
 * always let through, and counts only until the socket drained it.
 */
const MAX_QUEUED_HARD_BYTES = 64 * 1024 * 1024;
/** Events a slow client can do without: each is part of a message sent whole after it. */
const STREAMED = new Set(['message_update', 'reasoning_delta']);

export interface SocketServerOptions {
  socketPath: string;
  port: AgentDoor;
  workspace: string;
  started: Date;
  /** A client asked the agent to quit (after the reply went out). */
  onStop(): void;
}

export interface SocketServer {
  /**
   * The screens attached now, by their last `screen` message: at least one focused, only
   * unfocused ones, or none (a connection that closed is gone; one that never sent `screen`,
   * like `cogito status`, is no screen).
   */
  screens(): ScreenPresence;
  close(): Promise<void>;
}

export async function startSocketServer(opts: SocketServerOptions): Promise<SocketServer> {
  prepareSocketDir(opts.socketPath);
  await clearStaleSocket(opts.socketPath);
  const activity = trackActivity(opts.port, opts.started);
  const clients = new Set<Client>();
  const unsubscribe = opts.port.subscribe((event) => {
    for (const c of clients) if (c.subscribed) c.send({ type: 'event', event });
  });
  const server = net.createServer((socket) => {
    const client = new Client(socket, opts, activity.status);
    clients.add(client);
    socket.on('close', () => clients.delete(client));
  });
  // Bound with a umask that leaves the socket 0600 from its first moment; chmod again after,
  // for systems whose bind ignores the umask.
  const umask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.socketPath, () => resolve());
    });
  } finally {
    process.umask(umask);
  }
  fs.chmodSync(opts.socketPath, 0o600);
  server.on('error', () => undefined);
  return {
    screens: () => {
      const focus = [...clients].map((c) => c.focused);
      if (focus.includes(true)) return 'focused';
      return focus.includes(false) ? 'unfocused' : 'none';
    },
    close: async () => {
      unsubscribe();
      activity.stop();
      for (const c of clients) c.end();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A file at the socket path is either a live agent's socket (then this one must not start)
 * or left by one that died (nothing answers): that one is removed.
 */
async function clearStaleSocket(socketPath: string): Promise<void> {
  if (!fs.existsSync(socketPath)) return;
  const answers = await new Promise<boolean>((resolve) => {
    const probe = net.connect(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
  if (answers) {
    throw new Error(
      `Another agent answers on ${socketPath}. Stop it first: ${invokedAs()} stop --workspace DIR.`,
    );
  }
  fs.rmSync(socketPath, { force: true });
}

/** The state, since when, and the last activity, as the agent's events tell them. */
function trackActivity(port: AgentDoor, started: Date) {
  let since = started.toISOString();
  let lastActivity = since;
  let state = port.facts().state;
  const stop = port.subscribe((e: DoorEvent) => {
    const now = new Date().toISOString();
    if (e.type === 'state_changed' && typeof e.to === 'string') {
      if (e.to !== state) since = now;
      state = e.to;
    }
    if (e.type === 'turn_start' || e.type === 'turn_end' || e.type === 'message_added') {
      lastActivity = now;
    }
  });
  return {
    stop,
    status: (): Omit<AgentStatus, 'workspace' | 'pid' | 'started'> => {
      const facts = port.facts();
      return { ...facts, since, lastActivity };
    },
  };
}

/** One connected client: its line reader, its greeting, whether it wants events. */
class Client {
  subscribed = false;
  /** A screen's terminal focus, from its `screen` message; undefined: not a screen. */
  focused: boolean | undefined;
  private greeted = false;
  private readonly lines = new LineSplitter();
  /** Queued bytes of big messages still draining, allowed on top of MAX_QUEUED_BYTES. */
  private bigQueued = 0;

  constructor(
    private readonly socket: net.Socket,
    private readonly opts: SocketServerOptions,
    private readonly status: ReturnType<typeof trackActivity>['status'],
  ) {
    socket.setEncoding('utf8');
    socket.on('error', () => undefined);
    socket.on('data', (chunk: string) => this.receive(chunk));
    socket.on('drain', () => (this.bigQueued = 0));
    this.send({
      type: 'hello',
      protocol: PROTOCOL_VERSION,
      pid: process.pid,
      workspace: opts.workspace,
    });
  }

  send(message: ServerMessage): void {
    if (this.socket.destroyed) return;
    const queued = this.socket.writableLength - this.bigQueued;
    if (queued > MAX_QUEUED_HARD_BYTES) {
      this.socket.destroy();
      return;
    }
    if (queued > MAX_QUEUED_BYTES && message.type === 'event' && isStreamed(message.event)) return;
    const frames = encodeFrames(message);
    if (frames.length > MAX_QUEUED_BYTES / 4) this.bigQueued += Buffer.byteLength(frames);
    this.socket.write(frames);
  }

  end(): void {
    this.socket.end();
  }

  private receive(chunk: string): void {
    const { lines, skipped } = this.lines.push(chunk);
    if (skipped > 0) {
      this.send({ type: 'error', message: 'line too long: the limit is 1 MiB per message' });
      this.socket.end();
      return;
    }
    for (const line of lines) {
      const parsed = parseClientLine(line);
      if (!parsed.ok) this.send({ type: 'error', message: parsed.message });
      else this.handle(parsed.message);
    }
  }

  private handle(m: ClientMessage): void {
    if (m.type === 'hello') {
      if (m.protocol !== PROTOCOL_VERSION) {
        this.send({
          type: 'error',
          message: `protocol ${m.protocol} is not spoken here: this agent speaks ${PROTOCOL_VERSION}; use the cogito that started it`,
        });
        this.socket.end();
        return;
      }
      this.greeted = true;
      return;
    }
    if (!this.greeted) {
      this.send({
        type: 'error',
        message: `say hello first: {"type":"hello","protocol":${PROTOCOL_VERSION}}`,
      });
      return;
    }
    if (m.type === 'screen') {
      this.focused = m.focused;
      return;
    }
    if (m.type === 'command') {
      try {
        const sent = this.opts.port.send(m.command);
        if (!sent.ok) this.send({ type: 'error', message: sent.problem });
      } catch (err) {
        this.send({ type: 'error', message: `the command failed: ${String(err)}` });
      }
      return;
    }
    this.request(m.id, m.method);
  }

  private request(id: number, method: RequestMethod): void {
    const { workspace, started } = this.opts;
    switch (method) {
      case 'status': {
        const result: AgentStatus = {
          workspace,
          pid: process.pid,
          started: started.toISOString(),
          ...this.status(),
        };
        this.send({ type: 'reply', id, result });
        return;
      }
      case 'snapshot':
        this.send({ type: 'reply', id, result: this.opts.port.snapshot() });
        return;
      case 'approval':
        this.send({
          type: 'reply',
          id,
          result: { approval: this.opts.port.snapshot().approval ?? null },
        });
        return;
      case 'subscribe':
        this.subscribed = true;
        this.send({ type: 'reply', id, result: { subscribed: true } });
        return;
      case 'attach':
        // One synchronous step: the snapshot goes out and the connection is subscribed
        // before the agent can emit again, so the screen's mirror misses nothing.
        this.subscribed = true;
        this.send({ type: 'reply', id, result: { snapshot: this.opts.port.snapshot() } });
        return;
      case 'stop':
        this.send({ type: 'reply', id, result: { stopping: true } });
        this.opts.onStop();
        return;
    }
  }
}

function isStreamed(event: unknown): boolean {
  const type = (event as { type?: unknown } | null)?.type;
  return typeof type === 'string' && STREAMED.has(type);
}
