/**
 * Test seams into parts the agent owns and no client may read or swap: its settings, pacing
 * and budgets, history, provider, tools, safety and token counter; a provider pointed at
 * another server, a history whose writes fail. The one place tests and benches reach past
 * the agent's API (`send`, `subscribe`, `snapshot`), which has no way to do these on purpose:
 * a renamed private part breaks here, not in every test.
 */
import type { Agent, AgentSettings } from '../../src/agent/agent.js';
import type { AlwaysOn } from '../../src/agent/alwaysOn.js';
import type { SettingsPatch } from '../../src/agent/settings.js';
import type { AgentDeps } from '../../src/agent/agentDeps.js';
import type { AgentEvent } from '../../src/api/events.js';
import type { TokenCounter } from '../../src/memory/tokenCounter.js';
import type { TurnHistory } from '../../src/pipeline/saver.js';
import type { Provider } from '../../src/providers/types.js';
import type { ToolRegistry } from '../../src/tools/registry.js';
import type { SessionSafety } from '../../src/tools/sessionSafety.js';

/** The agent's private fields, as agent.ts names them. */
interface Inside {
  settings: AgentSettings;
  alwaysOn: AlwaysOn;
  safety: SessionSafety;
  counter: TokenCounter;
  deps: AgentDeps;
  turnDeps: { provider: Provider; history: TurnHistory; settings: AgentSettings };
  emitter: { emit(event: AgentEvent): void };
  changeSettings(patch: SettingsPatch): void;
}

const inside = (agent: Agent): Inside => agent as unknown as Inside;

/** What a test reads of the agent's parts (read only: each getter asks the agent now). */
export interface AgentInside {
  /** The settings in force now (a frozen value). */
  readonly settings: AgentSettings;
  readonly alwaysOn: AlwaysOn;
  readonly history: TurnHistory;
  readonly provider: Provider;
  readonly registry: ToolRegistry;
  readonly safety: SessionSafety;
  readonly counter: TokenCounter;
}

/** The agent's parts, read live (a /model switch shows in `provider` at once). */
export function internalsOf(agent: Agent): AgentInside {
  const a = inside(agent);
  return {
    get settings() {
      return a.settings;
    },
    get alwaysOn() {
      return a.alwaysOn;
    },
    get history() {
      return a.turnDeps.history;
    },
    get provider() {
      return a.turnDeps.provider;
    },
    get registry() {
      return a.deps.registry;
    },
    get safety() {
      return a.safety;
    },
    get counter() {
      return a.counter;
    },
  };
}

/** Replaces the settings through the agent's own settings command (what /approve does). */
export function changeSettings(agent: Agent, patch: SettingsPatch): void {
  inside(agent).changeSettings(patch);
}

/** Points the agent at another model provider (what /model does, without the command). */
export function swapProvider(agent: Agent, provider: Provider): void {
  inside(agent).turnDeps.provider = provider;
}

/** Puts an event on the agent's bus as if the agent had emitted it (a bench's seed data). */
export function emitAsAgent(agent: Agent, event: AgentEvent): void {
  inside(agent).emitter.emit(event);
}

/** Makes the agent read and write another history, shown on the store as it is. */
export function swapHistory(agent: Agent, history: TurnHistory): void {
  inside(agent).turnDeps.history = history;
  inside(agent).emitter.emit({ type: 'messages_replaced', messages: history.messages() });
}
