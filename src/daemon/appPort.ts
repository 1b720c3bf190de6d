/** The socket's {@link AgentPort} for a built app: the agent's own API, and its facts. */
import type { App } from '../app/createApp.js';
import { DAY_MS } from '../agent/budget.js';
import { activityText } from '../agent/activityText.js';
import type { AgentPort } from './agentPort.js';

export function appPort(app: App): AgentPort {
  const { agent } = app;
  return {
    send: (command) => agent.send(command),
    subscribe: (listener) => agent.subscribe(listener),
    snapshot: () => agent.snapshot(),
    facts: () => {
      const activity = agent.store.getState().activity;
      return {
        state: agent.state,
        tokensToday: agent.alwaysOn.budget.used(DAY_MS),
        sessionId: app.currentSessionId(),
        ...(activity ? { activity, doing: activityText(activity, agent.settings.lang) } : {}),
      };
    },
  };
}
