/**
 * The soak's model: every turn a Markdown answer with a tool call creating a file, then, once
 * the result is back, a short Markdown wrap-up that ends the turn (no [WAIT], so the next
 * autonomous turn follows at once). Every reply differs, so the loop guard never pauses.
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

/**
 * A default step for the scripted server that plays the soak and counts finished turns
 * (`onTurn(n)` when turn n's wrap-up is requested).
 */
export function soakScript(onTurn: (n: number) => void): (req: RecordedRequest) => Step {
  let turns = 0;
  return (req) => {
    const summary = isSummaryRequest(req);
    const closing = !summary && afterResult(req);
    if (closing) turns += 1;
    const content = summary
      ? `## Files and folders discovered\n- soak/ holds turn-1.md to turn-${turns}.md`
      : closing
        ? closingReply(turns)
        : openingReply(turns + 1);
    const usage = {
      prompt_tokens: Math.ceil(JSON.stringify(req.body?.messages ?? []).length / 4),
      completion_tokens: Math.ceil(content.length / 4),
    };
    // The server records every request; 4,000 whole conversations would fill the bench's
    // own memory, so only what answering needs is kept.
    req.body = {
      model: req.body?.model,
      stream: req.body?.stream,
      stream_options: req.body?.stream_options,
    };
    if (closing) onTurn(turns);
    return { kind: 'stream', content, usage };
  };
}
