/**
 * The socket's {@link AgentDoor} for a built app: the agent's own API, and its facts, read
 * from what the agent shows (its store: the last budget report, its language), never from
 * its parts.
 */
import type { App } from '../app/createApp.js';
import { activityText } from '../agent/activityText.js';
import { barFacts } from '../agent/stateLabel.js';
import type { AgentDoor } from './agentPort.js';

export function appPort(app: App): AgentDoor {
  const { agent } = app;
  return {
    send: (command) => agent.send(command),
    subscribe: (listener) => agent.subscribe(listener),
    snapshot: () => agent.snapshot(),
    facts: () => {
      const state = agent.store.getState();
      const { machine, activity, budgetUsedDay, lang } = state;
      return {
        state: machine,
        bar: barFacts(state),
        tokensToday: budgetUsedDay,
        sessionId: app.currentSessionId(),
        ...(activity ? { activity, doing: activityText(activity, lang) } : {}),
      };
    },
  };
}
