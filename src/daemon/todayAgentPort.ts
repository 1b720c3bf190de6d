/**
 * The one adapter from the socket's {@link AgentPort} onto today's Agent methods. Replaced by
 * the Agent API (`agent.send`, `agent.subscribe`, `agent.snapshot`) when it lands; nothing
 * else in src/daemon/ touches the Agent class.
 */
import type { App } from '../app/createApp.js';
import type { ApprovalAnswer } from '../agent/events.js';
import { DAY_MS } from '../agent/budget.js';
import type { AgentCommand, AgentPort, PortEvent } from './agentPort.js';

const ANSWERS: readonly ApprovalAnswer[] = ['yes', 'no', 'always'];

export function todayAgentPort(app: App): AgentPort {
  const { agent } = app;
  const send = (command: AgentCommand): void => {
    switch (command.type) {
      // Today's agent has no turn-boundary queue: a queued message is submitted (it stops
      // the turn in flight, which keeps what it produced). The Agent API queues it.
      case 'submit':
      case 'command':
      case 'queue':
        agent.submit(String(command.text));
        break;
      case 'interrupt':
        agent.interrupt();
        break;
      case 'pause':
        agent.pause(command.reason);
        break;
      case 'resume':
        agent.resume();
        break;
      case 'toggle_pause':
        agent.togglePause();
        break;
      case 'answer_approval':
        if (ANSWERS.includes(command.answer as ApprovalAnswer)) {
          agent.answerApproval(command.answer as ApprovalAnswer);
        }
        break;
    }
  };
  return {
    send,
    subscribe: (listener) => agent.subscribe((e) => listener(e as unknown as PortEvent)),
    facts: () => ({
      state: agent.state,
      tokensToday: agent.alwaysOn.budget.used(DAY_MS),
      sessionId: app.currentSessionId(),
    }),
  };
}
