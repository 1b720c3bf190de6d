/**
 * The command line's end of the socket: connects, exchanges hellos, asks things with a
 * deadline, sends the Agent API's commands and hears the agent's events. Every failure is an
 * Error whose message says what went wrong.
 */
import net from 'node:net';
import type { AgentCommand } from '../api/commands.js';
import { Listeners } from '../core/listeners.js';
import { ServerReader } from './frames.js';
import { encode, PROTOCOL_VERSION, type RequestMethod, type ServerMessage } from './protocol.js';

export interface AgentConnection {
  /** The agent's pid, from its hello. */
  pid: number;
  /**
   * Asks `method`; resolves with the reply. `onReply`, when given, gets the result at once as
   * its line is read, before any line after it (an event behind a snapshot): the resolve
   * comes a tick later.
   */
  request(
    method: RequestMethod,
    timeoutMs?: number,
    onReply?: (result: unknown) => void,
  ): Promise<unknown>;
  /**
   * Sends an Agent API command; resolves once the agent took it, rejects with the agent's
   * problem when it did not (the server answers a command only with an error, so a request
   * right behind it tells "taken": lines are handled in order).
   */
  command(command: AgentCommand, timeoutMs?: number): Promise<void>;
  /** Each agent event (after `attach` or `subscribe`), as the wire carried it; returns the unlisten. */
  onEvent(listener: (event: unknown) => void): () => void;
  /**
   * A line from the agent could not be read (over the size limit, not JSON, a broken long
   * message): it was skipped and reading went on at the next line, but whatever it carried
   * (an event, a reply) is lost. Called with what went wrong; returns the unlisten.
   */
  onProblem(listener: (problem: string) => void): () => void;
  /** The agent refused a command (an error line without a request id); returns the unlisten. */
  onRefusal(listener: (message: string) => void): () => void;
  /**
   * Called once with why the connection ended (the agent stopped, the socket broke, or
   * `close`); at once when it has ended already. Returns the unlisten.
   */
  onClose(listener: (why: string) => void): () => void;
  /**
   * Sends a command and does not wait: an attached screen, whose keys must never block. What
   * it did shows in the events (a refusal arrives as an error line nobody waits for).
   */
  post(command: AgentCommand): void;
  /** An attached screen tells the agent whether its terminal has focus (notifications). */
  screen(focused: boolean): void;
  close(): void;
}

/** Connects to the agent on `socketPath`; rejects if nothing answers a hello in time. */
export function connectAgent(socketPath: string, timeoutMs = 3000): Promise<AgentConnection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    socket.setEncoding('utf8');
    const reader = new ServerReader();
    const waiting = new Map<number, (m: ServerMessage) => void>();
    const events = new Listeners<[unknown]>();
    const problems = new Listeners<[string]>();
    const refusals = new Listeners<[string]>();
    const closes = new Listeners<[string]>();
    /** Why the connection ended, once it has (after the hello). */
    let closedWhy: string | undefined;
    /** Errors without an id: the answer to the command sent last. */
    let commandProblems: string[] = [];
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
      else if (closedWhy === undefined) {
        closedWhy = err.message;
        closes.emit(err.message);
      }
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
      const read = reader.push(chunk);
      for (const problem of read.problems) problems.emit(problem);
      for (const m of read.messages) {
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
        } else if (m.type === 'error') {
          commandProblems.push(m.message);
          refusals.emit(m.message);
        } else if (m.type === 'event') events.emit(m.event);
      }
    });
    const request = (
      method: RequestMethod,
      ms = 5000,
      onReply?: (result: unknown) => void,
    ): Promise<unknown> =>
      new Promise((ok, no) => {
        const id = nextId++;
        const t = setTimeout(() => {
          waiting.delete(id);
          no(new Error(`the agent did not answer "${method}" within ${ms} ms`));
        }, ms);
        waiting.set(id, (m) => {
          clearTimeout(t);
          if (m.type !== 'reply') {
            no(new Error(m.type === 'error' ? m.message : 'unexpected answer'));
            return;
          }
          try {
            onReply?.(m.result);
            ok(m.result);
          } catch (err) {
            no(err instanceof Error ? err : new Error(String(err)));
          }
        });
        socket.write(encode({ type: 'request', id, method }));
      });
    const connection = (pid: number): AgentConnection => ({
      pid,
      request,
      close: () => socket.end(),
      onEvent: (listener) => events.subscribe(listener),
      onProblem: (listener) => problems.subscribe(listener),
      onRefusal: (listener) => refusals.subscribe(listener),
      onClose: (listener) => {
        if (closedWhy === undefined) return closes.subscribe(listener);
        listener(closedWhy);
        return () => {};
      },
      command: async (command, ms = 5000) => {
        commandProblems = [];
        socket.write(encode({ type: 'command', command }));
        await request('status', ms);
        const [problem] = commandProblems;
        if (problem !== undefined) throw new Error(problem);
      },
      post: (command) => void socket.write(encode({ type: 'command', command })),
      screen: (focused) => void socket.write(encode({ type: 'screen', focused })),
    });
  });
}
