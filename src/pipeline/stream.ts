import type { ProviderEvent } from '../providers/types.js';
import { StreamRedactor } from '../core/streamRedact.js';
import type { TurnRun } from './work.js';

/** RUN's first half: streams the reply into the turn's work, emitting what it shows. */
export async function streamReply(run: TurnRun): Promise<void> {
  const { turn, deps, work } = run;
  // The model's own text is redacted before it is shown, stored or exported.
  const streams = modelTextStreams(run);
  try {
    for await (const ev of deps
      .provider()
      .stream({ messages: work.messages, signal: turn.signal })) {
      if (ev.type === 'reasoning_delta') streams.reasoning(ev.text);
      else if (ev.type === 'text_delta') streams.text(ev.text);
      else {
        // The tail held back for redaction belongs to the reply before usage is estimated.
        if (ev.type === 'done') streams.flush();
        streamEvent(ev, run);
      }
    }
  } finally {
    streams.flush();
  }
}

/** Sinks for the model's reasoning and text: redacted (across deltas), kept and emitted. */
function modelTextStreams(run: TurnRun): {
  reasoning(t: string): void;
  text(t: string): void;
  flush(): void;
} {
  const { turn, deps, work } = run;
  const redactor = deps.tools.safety?.redactor;
  const reasoning = redactor ? new StreamRedactor(redactor) : undefined;
  const text = redactor ? new StreamRedactor(redactor) : undefined;
  const addReasoning = (t: string): void => {
    if (t === '') return;
    work.reasoning += t;
    deps.emit({ type: 'reasoning_delta', turnId: turn.turnId, text: t });
  };
  const addText = (t: string): void => {
    if (t === '') return;
    work.reply += t;
    deps.emit({ type: 'text_delta', turnId: turn.turnId, text: t });
  };
  // A switch of channel ends the other one's run: its tail, held back in case a secret
  // went on in the next delta, is shown now (reasoning does not stop mid-word while the
  // reply streams).
  return {
    reasoning: (t) => {
      if (text) addText(text.flush());
      addReasoning(reasoning ? reasoning.push(t) : t);
    },
    text: (t) => {
      if (reasoning) addReasoning(reasoning.flush());
      addText(text ? text.push(t) : t);
    },
    flush: () => {
      if (reasoning) addReasoning(reasoning.flush());
      if (text) addText(text.flush());
    },
  };
}

/** Usage and the end of the stream (the deltas go through {@link modelTextStreams}). */
function streamEvent(ev: ProviderEvent, run: TurnRun): void {
  const { turn, deps, work } = run;
  switch (ev.type) {
    case 'usage':
      work.gotUsage = true;
      countUsage(run, ev.usage.promptTokens, ev.usage.totalTokens);
      deps.emit({ type: 'usage', turnId: turn.turnId, usage: ev.usage, estimated: false });
      break;
    case 'done':
      if (!work.gotUsage) {
        // No usage from the server: account an estimate, so budgets still hold.
        const completionTokens = deps.countTokens(work.reasoning + work.reply);
        const usage = {
          promptTokens: work.promptTokens,
          completionTokens,
          totalTokens: work.promptTokens + completionTokens,
        };
        countUsage(run, usage.promptTokens, usage.totalTokens);
        deps.emit({ type: 'usage', turnId: turn.turnId, usage, estimated: true });
      }
      if (ev.reason === 'error')
        work.error = ev.error ?? { kind: 'unknown', message: 'the model request failed' };
      break;
  }
}

/** The turn keeps its own token count: budgets and the tokenizer decide from it, not the screen. */
function countUsage(run: TurnRun, promptTokens: number, totalTokens: number): void {
  run.work.totalTokens += totalTokens;
  run.work.contextTokens = promptTokens;
}
