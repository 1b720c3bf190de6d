import type { HistoryMessage } from '../core/messages.js';

const LABEL: Record<HistoryMessage['role'], string> = {
  user: 'You',
  assistant: 'Cogito',
  tool: 'Tool results',
  system: 'Summary',
};

/** Longest run of backticks in `text`, so a fence around it is always one longer. */
function fenceFor(text: string): string {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** A readable Markdown transcript of a session (archived messages first, when given). */
export function exportMarkdown(sessionId: string, messages: readonly HistoryMessage[]): string {
  const out = [`# Cogito session ${sessionId}`, ''];
  for (const m of messages) {
    const when = new Date(m.at).toISOString().replace('T', ' ').slice(0, 19);
    const flags = [
      m.interrupted ? 'interrupted' : '',
      m.summary ? 'summary of earlier messages' : '',
    ]
      .filter(Boolean)
      .join(', ');
    out.push(`## ${LABEL[m.role]} · ${when}${flags ? ` (${flags})` : ''}`, '');
    if (m.reasoning) {
      out.push(
        ...m.reasoning
          .trim()
          .split('\n')
          .map((l) => `> ${l}`),
        '',
      );
    }
    if (m.role === 'tool') {
      const fence = fenceFor(m.content);
      out.push(fence, m.content, fence, '');
    } else {
      out.push(m.content.trim(), '');
    }
  }
  return out.join('\n');
}
