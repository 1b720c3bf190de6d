/**
 * A Unix socket in front of an agent's socket whose agent-to-client direction can be held
 * back: what the agent sends waits in the proxy until `release()`, as on a connection that
 * lags (a loaded machine, a slow terminal, an ssh hop). The client-to-agent direction always
 * flows.
 */
import net from 'node:net';

export interface LaggingProxy {
  path: string;
  /** From now on the agent's bytes wait. */
  hold(): void;
  /** Delivers what waited, and lets the rest flow. */
  release(): void;
  close(): Promise<void>;
}

export async function laggingProxy(target: string, path: string): Promise<LaggingProxy> {
  let holding = false;
  /** Each connection's client, and the agent's bytes waiting for it. */
  const clients = new Map<net.Socket, Buffer[]>();
  const server = net.createServer((client) => {
    const agent = net.connect(target);
    const held: Buffer[] = [];
    clients.set(client, held);
    client.pipe(agent);
    agent.on('data', (d: Buffer) => (holding ? held.push(d) : client.write(d)));
    const end = (): void => {
      client.destroy();
      agent.destroy();
      clients.delete(client);
    };
    agent.on('close', end);
    client.on('close', end);
    agent.on('error', end);
    client.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return {
    path,
    hold: () => (holding = true),
    release: () => {
      holding = false;
      for (const [client, held] of clients) for (const d of held.splice(0)) client.write(d);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of clients.keys()) c.destroy();
        server.close(() => resolve());
      }),
  };
}
