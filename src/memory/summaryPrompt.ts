import type { ChatMessage, HistoryMessage } from '../core/messages.js';

/** Per-message caps in the transcript the summariser reads: tool output is the bulk. */
const CAP = { tool: 1500, assistant: 4000, user: 4000, system: 8000 } as const;

const INSTRUCTIONS = `You compress the older part of a conversation between a user and Cogito, an AI agent working in the user's workspace. Your summary replaces those messages, so keep every fact Cogito will need later: exact file and folder paths, names, numbers, decisions.

Write these sections, in the language the conversation uses, without preamble:
## Files and folders discovered
## Actions taken and their results
## The user's preferences and instructions
(quote the user's own words where they matter)
## Open tasks

If an earlier summary is included, merge it in. Be concise, but never drop a user instruction.`;

function clip(text: string, max: number): string {
  return text.length <= max
    ? text
    : `${text.slice(0, max)}\n[… ${text.length - max} characters cut]`;
}

/** The request that asks the model for a structured summary of `older`. */
export function buildSummaryRequest(older: readonly HistoryMessage[]): ChatMessage[] {
  const transcript = older
    .map((m) => {
      const label = m.summary ? 'earlier summary' : m.role === 'tool' ? 'tool results' : m.role;
      return `### ${label}\n${clip(m.content, CAP[m.role])}`;
    })
    .join('\n\n');
  return [
    { role: 'system', content: INSTRUCTIONS },
    { role: 'user', content: `Conversation to summarise:\n\n${transcript}` },
  ];
}
