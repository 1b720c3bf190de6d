/**
 * A client on an agent's socket that speaks the wire protocol by hand, line by line (so a
 * test can also send what the real client never would: nothing, or a message before the
 * hello). It keeps every message it received (a long one joined from its parts).
 */
import net from 'node:net';
import { ServerReader } from '../../src/daemon/frames.js';
import { PROTOCOL_VERSION } from '../../src/daemon/protocol.js';
import { waitUntil } from './waitFor.js';

type Line = Record<string, unknown>;

export interface RawAgentClient {
  lines: Line[];
  send(message: unknown): void;
  command(command: unknown): void;
  /** Sends `status` and waits for its reply: every line sent before it has been handled. */
  sync(): Promise<void>;
  /** Asks for the agent's events (after the hello). */
  subscribe(): Promise<void>;
  /** Waits for the n-th (1-based) event of this type seen on this connection. */
  waitForEvent(type: string, nth?: number, extra?: (e: Line) => boolean): Promise<Line>;
  errors(): string[];
  close(): void;
}

/** Connects, waits for the agent's hello and (unless `hello` is false) answers it. */
export async function rawAgentClient(
  socketPath: string,
  opts: { hello?: boolean; timeoutMs?: number } = {},
): Promise<RawAgentClient> {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const socket = net.connect(socketPath);
  socket.setEncoding('utf8');
  const lines: Line[] = [];
  // The agent's long messages come in parts; the reader joins them (and would say what it
  // could not read: the test sees that as a line of its own).
  const reader = new ServerReader();
  socket.on('data', (d: string) => {
    const read = reader.push(d);
    for (const m of read.messages) lines.push(m as unknown as Line);
    for (const problem of read.problems) lines.push({ type: 'unreadable', problem });
  });
  socket.on('error', () => undefined);
  await waitUntil(() => lines.length > 0, 'the hello', timeoutMs);
  const send = (m: unknown): void => void socket.write(`${JSON.stringify(m)}\n`);
  if (opts.hello !== false) send({ type: 'hello', protocol: PROTOCOL_VERSION });
  let id = 0;
  const ask = async (method: string, what: string): Promise<void> => {
    const mine = ++id;
    send({ type: 'request', id: mine, method });
    await waitUntil(() => lines.find((l) => l.id === mine), what, timeoutMs);
  };
  const events = (): Line[] => lines.filter((l) => l.type === 'event').map((l) => l.event as Line);
  return {
    lines,
    send,
    command: (command) => send({ type: 'command', command }),
    sync: () => ask('status', 'the status reply'),
    subscribe: () => ask('subscribe', 'the subscription'),
    waitForEvent: (type, nth = 1, extra = () => true) =>
      waitUntil(
        () => events().filter((e) => e.type === type && extra(e))[nth - 1],
        `event ${type} #${nth}`,
        60_000,
      ),
    errors: () => lines.filter((l) => l.type === 'error').map((l) => String(l.message)),
    close: () => socket.destroy(),
  };
}
