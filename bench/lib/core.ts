/**
 * The real core (createApp: config, session, provider, agent) in this process, against the
 * scripted server, with every agent event timestamped. Used by the fault suite.
 */
import type { AgentEvent } from '../../src/api/events.js';
import { createApp, type App } from '../../src/app/createApp.js';
import type { MachineState } from '../../src/machine/machine.js';
import { startScriptedServer, type ScriptedServer } from '../../test/helpers/scriptedServer.js';
import { makeHome, type BenchHome } from './appEnv.js';

export interface TimedEvent {
  t: number;
  e: AgentEvent;
}

export interface Core {
  app: App;
  server: ScriptedServer;
  home: BenchHome;
  events: TimedEvent[];
  /** Resolves with the first event from index `from` on that matches. */
  waitFor(
    pred: (e: AgentEvent) => boolean,
    what: string,
    opts?: { from?: number; timeoutMs?: number },
  ): Promise<TimedEvent>;
  close(): Promise<void>;
}

export interface CoreOptions {
  config?: Record<string, unknown>;
  env?: Record<string, string>;
  initialState?: MachineState;
  prepare?(home: BenchHome): void | Promise<void>;
  /** Milliseconds createApp took is stored here. */
  onCreated?(ms: number): void;
}

export async function startCore(opts: CoreOptions = {}): Promise<Core> {
  const server = await startScriptedServer();
  const home = makeHome(server.url, opts.config ?? {});
  await opts.prepare?.(home);
  const t0 = performance.now();
  const made = await createApp({
    flags: {},
    env: home.env(opts.env),
    cwd: home.workspace,
    initialState: opts.initialState ?? 'THINKING',
  });
  opts.onCreated?.(performance.now() - t0);
  if (!made.ok) {
    await server.close();
    home.cleanup();
    throw new Error(`createApp failed: ${made.message}`);
  }
  const { app } = made;
  const events: TimedEvent[] = [];
  const waiters = new Set<() => void>();
  app.agent.subscribe((e) => {
    events.push({ t: performance.now(), e });
    for (const w of [...waiters]) w();
  });
  return {
    app,
    server,
    home,
    events,
    waitFor(pred, what, o = {}) {
      return new Promise((resolve, reject) => {
        let i = o.from ?? 0;
        const check = (): boolean => {
          for (; i < events.length; i++) {
            if (pred(events[i]!.e)) {
              resolve(events[i]!);
              return true;
            }
          }
          return false;
        };
        if (check()) return;
        const timer = setTimeout(() => {
          waiters.delete(w);
          const seen = events
            .slice(-8)
            .map((x) => x.e.type)
            .join(', ');
          reject(
            new Error(`${what}: not seen after ${o.timeoutMs ?? 15_000} ms (last events: ${seen})`),
          );
        }, o.timeoutMs ?? 15_000);
        const w = (): void => {
          if (check()) {
            clearTimeout(timer);
            waiters.delete(w);
          }
        };
        waiters.add(w);
      });
    },
    async close() {
      await app.close();
      await server.close();
    },
  };
}

/** The text a user would see for an event (errors and notices), or undefined. */
export function visibleText(e: AgentEvent): string | undefined {
  if (e.type === 'error') return e.error.message;
  if (e.type === 'notice') return e.text;
  if (e.type === 'state_changed' && e.reason) return e.reason;
  return undefined;
}
