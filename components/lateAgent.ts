/**
 * The screen's agent before the app exists. The first frame is drawn while `createApp` still
 * runs (reading the configuration, opening the session, loading the tools): until then the
 * screen shows a store of its own whose status says what is starting (`Thinking · starting:
 * …`, the way MCP servers connecting are shown), and every command the screen sends is
 * kept, in order. When the real agent arrives the screen's store follows the agent's, the
 * loop starts if the screen has started it, and the kept commands go to the agent: what was
 * typed during the start is never lost. From then on everything is forwarded.
 */
import type { AgentCommand } from '../src/api/commands.js';
import {
  createAgentStore,
  type AgentStore,
  type AgentStoreState,
} from '../src/store/agentStore.js';
import type { AgentController, AgentLoop } from './controller.js';

export interface LateAgent extends AgentController, AgentLoop {
  readonly store: AgentStore;
  /** The real agent: the screen follows it from now on. */
  attach(agent: AgentController & AgentLoop): void;
}

type Listener = (state: AgentStoreState, prev: AgentStoreState) => void;

/**
 * A late agent whose screen says `startingText` until the real one is attached: "Thinking ·
 * starting: …", or "Paused · starting: …" for an app started `--paused`, which will not think
 * once it is up either.
 */
export function createLateAgent(startingText: string, paused = false): LateAgent {
  const starting = createAgentStore({
    machine: paused ? 'PAUSED' : 'THINKING',
    preparing: startingText,
  });
  let target: AgentStore = starting;
  const listeners = new Set<Listener>();
  const fanOut: Listener = (state, prev) => {
    for (const l of listeners) l(state, prev);
  };
  let unsubscribe = target.subscribe(fanOut);
  let agent: (AgentController & AgentLoop) | undefined;
  let started = false;
  const kept: AgentCommand[] = [];

  // One store object for the screen's whole life (its hooks subscribe once), reading the
  // store of the moment.
  const store: AgentStore = {
    getState: () => target.getState(),
    getInitialState: () => target.getInitialState(),
    setState: ((partial: never, replace: never) =>
      target.setState(partial, replace)) as AgentStore['setState'],
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };

  return {
    store,
    get busy() {
      return agent?.busy;
    },
    send(command) {
      if (agent) return agent.send(command);
      kept.push(command);
      return undefined;
    },
    start() {
      started = true;
      agent?.start();
    },
    stop() {
      started = false;
      return agent?.stop();
    },
    attach(real) {
      const prev = target.getState();
      unsubscribe();
      target = real.store;
      unsubscribe = target.subscribe(fanOut);
      agent = real;
      fanOut(target.getState(), prev);
      if (started) real.start();
      for (const command of kept.splice(0)) real.send(command);
    },
  };
}
