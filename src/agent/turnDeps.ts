import { t } from '../i18n/messages.js';
import type { TurnDeps } from '../pipeline/turn.js';
import type { MachineState } from '../machine/machine.js';
import type { TokenCounter } from '../memory/tokenCounter.js';
import type { HistoryPort } from '../pipeline/turn.js';
import type { Provider } from '../providers/types.js';
import type { SessionSafety } from '../tools/sessionSafety.js';
import type { OwnWrites } from '../watch/ownWrites.js';
import type {
  AgentDeps,
  AgentSettings,
  CommandHandler,
  CompactFn,
  ToolsReady,
} from './agentDeps.js';
import type { AlwaysOn } from './alwaysOn.js';
import type { AgentEvent } from '../api/events.js';
import type { ToolRunnerDeps } from '../pipeline/toolRunner.js';
import { buildTurnRequest } from './request.js';

/**
 * What the turn runner and the turn's deps use of the agent, handed over by the agent when
 * it builds them: they read its parts and report through it, and never write its fields.
 */
export interface TurnHost {
  readonly settings: AgentSettings;
  readonly alwaysOn: AlwaysOn;
  readonly counter: TokenCounter;
  readonly safety: SessionSafety;
  readonly ownWrites: OwnWrites;
  state(): MachineState;
  provider(): Provider;
  history(): HistoryPort;
  /** The agent's bus: the turn's events are the agent's events. */
  emit(event: AgentEvent): void;
  notice(text: string, level?: 'info' | 'warn'): void;
  /** Gives the floor back to the user after an answering command (WAIT when allowed). */
  listen(): void;
}

/**
 * What `turnDeps` takes: the agent's host port, its private approval state, its command
 * and compact hooks (built from its verbs), and the turn runner's RESTORE and RESPOND steps.
 */
export interface TurnDepsParts extends Pick<TurnDeps, 'recover' | 'takeInput' | 'respond'> {
  host: TurnHost;
  deps: AgentDeps;
  askApproval: ToolRunnerDeps['askApproval'];
  alwaysAllowed: Set<string>;
  commands?: CommandHandler | undefined;
  compact?: CompactFn | undefined;
}

/**
 * COMMAND's work: runs the command, then acts on its outcome. After an answering command
 * the floor goes back to the user; `keep` leaves the machine where the command put it.
 */
function commandPhase(
  agent: TurnHost,
  commands: CommandHandler,
): NonNullable<TurnDeps['runCommand']> {
  return async (text, signal) => {
    const outcome = await commands(text, signal);
    if (outcome.after === 'listen') agent.listen();
  };
}

/**
 * BUILD's wait for tools still connecting (MCP servers), shown on the status bar while it
 * lasts. Nothing is shown, and nothing waits, once every source has connected or failed;
 * the bound is the sources' own (one shared deadline, not one per request).
 */
function toolsReadyWait(agent: TurnHost, tools: ToolsReady): NonNullable<TurnDeps['ready']> {
  return async (signal) => {
    const names = tools.starting();
    if (names.length === 0) return;
    const what = t(agent.settings.lang, 'status.connectingMcp', { names: names.join(', ') });
    agent.emit({ type: 'preparing', what });
    try {
      await tools.settled(signal);
    } finally {
      agent.emit({ type: 'preparing' });
    }
  };
}

/**
 * The pipeline's view of the agent for one turn: provider, history, tools, the request
 * builder (byte-identical system prompt, per-turn notes pinned in place), the budget
 * check made before anything is sent, and the RESTORE and RESPOND steps.
 */
export function turnDeps(p: TurnDepsParts): TurnDeps {
  const { host: agent, deps, compact } = p;
  const settings = agent.settings;
  const alwaysOn = agent.alwaysOn;
  return {
    provider: () => agent.provider(),
    history: agent.history(),
    workspace: deps.workspace,
    emit: (e) => agent.emit(e),
    ...(p.recover ? { recover: p.recover } : {}),
    ...(p.takeInput ? { takeInput: p.takeInput } : {}),
    ...(p.respond ? { respond: p.respond } : {}),
    tools: {
      registry: deps.registry,
      policy: (kind) => settings.approval[kind],
      lang: settings.lang,
      askApproval: p.askApproval,
      alwaysAllowed: p.alwaysAllowed,
      resultBudgetChars: settings.toolResultBudgetChars,
      secrets: deps.secrets ?? [],
      safety: agent.safety,
      ...(settings.maxToolCallsPerReply !== undefined
        ? { maxCallsPerReply: settings.maxToolCallsPerReply }
        : {}),
      ownWrites: agent.ownWrites,
    },
    buildRequest: (history, t, step) =>
      buildTurnRequest({
        systemPrompt: deps.systemPrompt(),
        history,
        cycle: t.cycle,
        trigger: t.trigger,
        contextWindow: settings.contextWindow,
        sendReasoning: settings.sendReasoningInHistory,
        counter: agent.counter,
        // The turn's note (time, reason, news) goes with its first request only: a later
        // step follows the results of its own calls, in the same turn.
        note: step === 1 ? alwaysOn.noteFor(t.trigger, t.cycle, history) : undefined,
        notes: alwaysOn.notes.map,
        tools: deps.requestTools?.(),
      }),
    preflight: (promptTokens) => alwaysOn.budget.check(promptTokens)?.reason,
    countTokens: (text) => agent.counter.count(text),
    ...(compact
      ? {
          compact: async (signal: AbortSignal) => {
            await compact(signal, false);
          },
        }
      : {}),
    ...(p.commands ? { runCommand: commandPhase(agent, p.commands) } : {}),
    ...(deps.toolsReady ? { ready: toolsReadyWait(agent, deps.toolsReady) } : {}),
  };
}
