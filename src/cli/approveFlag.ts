/**
 * `--approve KINDS` for print mode: a script names the tool kinds it lets run without asking,
 * for this one run (`write,network`, or `all`). It only lifts the per-kind policy: a place
 * no tool may change (`.git`, Cogito's home and code) stays refused, and what asks every time
 * (shell start-up files, executables, data leaving the machine) is still declined, since
 * nobody is there to read the card. Kept apart from args.ts so the kinds have one parser.
 */
import { TOOL_KINDS } from '../config/defaults.js';
import { UsageError } from './usageError.js';

/** A tool kind, as `approval` in config.json names them (the cli layer does not see tools/). */
export type ToolKind = (typeof TOOL_KINDS)[number];

const isKind = (word: string): word is ToolKind => (TOOL_KINDS as readonly string[]).includes(word);

/** The kinds `raw` names (`all`: every one); a bad word throws a UsageError naming the valid ones. */
export function parseApproveKinds(raw: string): ToolKind[] {
  const words = raw
    .split(',')
    .map((w) => w.trim().toLowerCase())
    .filter((w) => w !== '');
  const valid = `${TOOL_KINDS.join(', ')} or all`;
  if (words.length === 0) {
    throw new UsageError(
      `--approve needs the tool kinds to allow: ${valid} (e.g. --approve write,network)`,
    );
  }
  const kinds = new Set<ToolKind>();
  for (const word of words) {
    if (word === 'all') TOOL_KINDS.forEach((k) => kinds.add(k));
    else if (isKind(word)) kinds.add(word);
    else throw new UsageError(`--approve: unknown tool kind "${word}"; the kinds are ${valid}`);
  }
  // In the table's order, so messages and tests see one spelling.
  return TOOL_KINDS.filter((k) => kinds.has(k));
}
