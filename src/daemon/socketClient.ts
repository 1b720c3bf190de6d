/**
 * The command line's end of the socket: connects, exchanges hellos, and asks one thing at a
 * time with a deadline. Every failure is an Error whose message says what went wrong.
 */
import net from 'node:net';
import {
  encode,
  LineSplitter,
  PROTOCOL_VERSION,
  type RequestMethod,
  type ServerMessage,
} from './protocol.js';
import type { AgentCommand } from '../api/commands.js';

/** What a connection that stays open (an attached screen) hears besides replies. */
export interface ConnectionEvents {
  /** An agent event (after `attach` or `subscribe`), as the wire carried it. */
  event?(event: unknown): void;
  /** An error line not tied to a request (a command the agent refused, say). */
  error?(message: string): void;
  /** The connection ended after the hello (the agent stopped, or the socket broke). */
  closed?(why: string): void;
}

export interface AgentConnection {
  /** The agent's pid, from its hello. */
  pid: number;
  request(method: RequestMethod, timeoutMs?: number): Promise<unknown>;
  /** Sends an agent command (plain data); what it did shows in the events. */
  command(command: AgentCommand): void;
  close(): void;
}

/** Connects to the agent on `socketPath`; rejects if nothing answers a hello in time. */
export function connectAgent(
  socketPath: string,
  timeoutMs = 3000,
  on: ConnectionEvents = {},
): Promise<AgentConnection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    socket.setEncoding('utf8');
    const lines = new LineSplitter();
    const waiting = new Map<number, (m: ServerMessage) => void>();
    let nextId = 1;
    let greeted = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no hello from the agent on ${socketPath} within ${timeoutMs} ms`));
    }, timeoutMs);
    const fail = (err: Error): void => {
      clearTimeout(timer);
      for (const w of waiting.values()) w({ type: 'error', message: err.message });
      waiting.clear();
      if (!greeted) reject(err);
      else on.closed?.(err.message);
    };
    let failed = false;
    socket.on('error', (err) => {
      if (!failed) fail(new Error(`cannot reach ${socketPath}: ${err.message}`));
      failed = true;
    });
    socket.on('close', () => {
      if (!failed) fail(new Error(`the agent on ${socketPath} closed the connection`));
      failed = true;
    });
    socket.on('data', (chunk: string) => {
      for (const line of lines.push(chunk) ?? []) {
        let m: ServerMessage;
        try {
          m = JSON.parse(line) as ServerMessage;
        } catch {
          continue;
        }
        if (m.type === 'hello' && !greeted && m.protocol !== PROTOCOL_VERSION) {
          socket.destroy();
          fail(
            new Error(
              `the agent on ${socketPath} speaks protocol ${m.protocol}, this cogito ${PROTOCOL_VERSION}: stop it with the cogito that started it`,
            ),
          );
        } else if (m.type === 'hello' && !greeted) {
          greeted = true;
          clearTimeout(timer);
          socket.write(encode({ type: 'hello', protocol: PROTOCOL_VERSION, client: 'cogito-cli' }));
          resolve(connection(m.pid));
        } else if ((m.type === 'reply' || m.type === 'error') && m.id !== undefined) {
          waiting.get(m.id)?.(m);
          waiting.delete(m.id);
        } else if (m.type === 'event') {
          on.event?.(m.event);
        } else if (m.type === 'error') {
          on.error?.(m.message);
        }
      }
    });
    const connection = (pid: number): AgentConnection => ({
      pid,
      close: () => socket.end(),
      command: (command) => void socket.write(encode({ type: 'command', command })),
      request: (method, ms = 5000) =>
        new Promise((ok, no) => {
          const id = nextId++;
          const t = setTimeout(() => {
            waiting.delete(id);
            no(new Error(`the agent did not answer "${method}" within ${ms} ms`));
          }, ms);
          waiting.set(id, (m) => {
            clearTimeout(t);
            if (m.type === 'reply') ok(m.result);
            else no(new Error(m.type === 'error' ? m.message : 'unexpected answer'));
          });
          socket.write(encode({ type: 'request', id, method }));
        }),
    });
  });
}
