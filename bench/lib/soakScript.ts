/**
 * The soak's model: every turn a Markdown answer with a tool call creating a file, then, once
 * the result is back, a short Markdown wrap-up that ends the turn. Every reply differs, so the
 * loop guard never pauses.
 * - autonomous turns (test/app/longRunBounds.test.ts): no [WAIT], so the next turn follows;
 * - user turns (`userTurns`, bench/soak.ts): reasoning streamed before each reply
 *   (`reasoning_content`), and the wrap-up ends with [WAIT], so the next turn is the user's.
 */
import type { RecordedRequest, Step } from '../../test/helpers/scriptedServer.js';

const TOPICS = ['budget', 'supplier', 'invoice', 'agenda', 'backup', 'report', 'contract'];

/** True when the request continues a turn whose tool result was just sent. */
export function afterResult(req: RecordedRequest): boolean {
  const msgs = (req.body?.messages ?? []) as { content?: unknown }[];
  const last = msgs.at(-1)?.content;
  return typeof last === 'string' && last.includes('[RESULT');
}

/** A compression request (the compactor's own prompt), answered with a summary. */
export function isSummaryRequest(req: RecordedRequest): boolean {
  const first = (req.body?.messages ?? [])[0] as { content?: unknown } | undefined;
  return typeof first?.content === 'string' && first.content.startsWith('You compress');
}

/** The opening reply of turn `n`: Markdown (heading, list, code, table) and a `create`. */
export function openingReply(n: number): string {
  const t = (k: number): string => TOPICS[(n * 3 + k) % TOPICS.length]!;
  const tag = ((n * 2654435761) % 2 ** 32).toString(36);
  return [
    `## Turn ${n}: the ${t(0)}`,
    '',
    `- looked at the **${t(1)}** and the _${t(2)}_ (${tag})`,
    `- next: \`${t(3)}\` then ${t(4)}`,
    '',
    '```ts',
    `const turn${n} = { topic: '${t(0)}', tag: '${tag}' };`,
    '```',
    '',
    '| item | state |',
    '|---|---|',
    `| ${t(5)} | ${n % 2 ? 'open' : 'done'} |`,
    '',
    `[TOOL] create("soak/turn-${n}.md", "# Turn ${n}\\n\\n${t(0)} ${tag}\\n") [/TOOL]`,
  ].join('\n');
}

/** The wrap-up after the file was created. */
export function closingReply(n: number): string {
  return `Wrote \`soak/turn-${n}.md\` (**${TOPICS[n % TOPICS.length]}**, ${n.toString(36)}).`;
}

/** What the model thinks before a reply: a few sentences, different each time. */
export function reasoningFor(n: number, closing: boolean): string {
  const t = (k: number): string => TOPICS[(n * 5 + k) % TOPICS.length]!;
  return closing
    ? `The file for turn ${n} is written. I should say so briefly, mention the ${t(0)}, and wait for the user.`
    : [
        `The user wants a note for turn ${n}. The ${t(0)} and the ${t(1)} came up before;`,
        `the ${t(2)} is still open. A short Markdown summary with a list, a code block and a`,
        `table, then one file under soak/ so the ${t(3)} is kept. Nothing to delete or overwrite.`,
      ].join(' ');
}

export interface SoakScriptOptions {
  /** Reasoning before each reply and [WAIT] at the end of the wrap-up (typed user turns). */
  userTurns?: boolean;
  /** Called with the 1-based count of every chat request, before it is answered. */
  onRequest?: (count: number) => void;
}

/**
 * A default step for the scripted server that plays the soak and counts finished turns
 * (`onTurn(n)` when turn n's wrap-up is requested).
 */
export function soakScript(
  onTurn: (n: number) => void,
  opts: SoakScriptOptions = {},
): (req: RecordedRequest) => Step {
  let turns = 0;
  let requests = 0;
  return (req) => {
    requests += 1;
    const summary = isSummaryRequest(req);
    const closing = !summary && afterResult(req);
    if (closing) turns += 1;
    const text = summary
      ? `## Files and folders discovered\n- soak/ holds turn-1.md to turn-${turns}.md`
      : closing
        ? closingReply(turns)
        : openingReply(turns + 1);
    const content = opts.userTurns && closing ? `${text}\n\n[WAIT]` : text;
    const reasoning =
      opts.userTurns && !summary ? reasoningFor(closing ? turns : turns + 1, closing) : undefined;
    const usage = {
      prompt_tokens: Math.ceil(JSON.stringify(req.body?.messages ?? []).length / 4),
      completion_tokens: Math.ceil((content.length + (reasoning?.length ?? 0)) / 4),
    };
    // The server records every request; 4,000 whole conversations would fill the bench's
    // own memory, so only what answering needs is kept.
    req.body = {
      model: req.body?.model,
      stream: req.body?.stream,
      stream_options: req.body?.stream_options,
    };
    opts.onRequest?.(requests);
    if (closing) onTurn(turns);
    return { kind: 'stream', content, usage, ...(reasoning ? { reasoning } : {}) };
  };
}
