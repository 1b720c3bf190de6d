/**
 * The pre-compaction flush: the summary request also asks for the facts worth keeping in the
 * folder memory, under a heading of their own, so what compaction would summarise away is
 * offered to memory first, with no request of its own. The section is cut out of the summary
 * (the facts go to the memory inbox, where the user accepts or rejects them).
 */

/** The heading the summariser writes the facts under. */
export const FLUSH_HEADING = '## Worth remembering in this folder';

/** What the summary request adds when a flush is wanted. */
export const FLUSH_INSTRUCTIONS = `

Finally, add this section last:
${FLUSH_HEADING}
(lasting facts about this workspace or the user's wishes that a future session needs, one per line starting with "- ", each one short sentence; only what the user said or what was verified, never a secret such as a key or a password; write "- none" when there is nothing)`;

/** Facts kept from one flush at most: the inbox is small and each one costs the user a look. */
const MAX_FACTS = 10;

/** The summary without the flush section, and the facts it held. */
export function splitFlush(text: string): { summary: string; facts: string[] } {
  const at = text.indexOf(FLUSH_HEADING);
  if (at < 0) return { summary: text, facts: [] };
  const rest = text.slice(at + FLUSH_HEADING.length);
  // The section ends at the next heading of the same or a higher level, if any.
  const end = rest.search(/\n#{1,2} /);
  const body = end < 0 ? rest : rest.slice(0, end);
  const after = end < 0 ? '' : rest.slice(end);
  const facts = body
    .split('\n')
    .map((l) => /^\s*[-*]\s+(.*)$/.exec(l)?.[1]?.trim() ?? '')
    .filter((f) => f !== '' && !/^\(?none\)?\.?$/i.test(f))
    .slice(0, MAX_FACTS);
  return { summary: `${text.slice(0, at)}${after}`.trim(), facts };
}
