/** The key hint line and the help rows, both read from the binding table. */
import type { MessageKey } from '../../src/i18n/messages.js';
import { BINDINGS } from './bindings.js';
import { applies, type KeyContext, type When } from './types.js';

/**
 * The key hints that apply now, in hint order, one per label. A hint whose keys all went to
 * an earlier row of the input line's own keys is left out (while the `@` list is open, Enter
 * puts a path: "Enter send" would be wrong).
 */
export function hintsFor(ctx: KeyContext): { keys: string; label: MessageKey }[] {
  const seen = new Set<MessageKey>();
  const taken = new Set<string>();
  const out: { keys: string; label: MessageKey; order: number }[] = [];
  for (const b of BINDINGS) {
    if (!applies(b.when, ctx)) continue;
    const shadowed = b.keys.every((k) => taken.has(k));
    if (b.when.mention === true) for (const k of b.keys) taken.add(k);
    if (!b.hint || seen.has(b.hint.label) || shadowed) continue;
    seen.add(b.hint.label);
    out.push({ keys: b.hint.keys ?? b.keys.join('/'), label: b.hint.label, order: b.hint.order });
  }
  return out.sort((a, b) => a.order - b.order).map(({ keys, label }) => ({ keys, label }));
}

/**
 * The rows of the help overlay and docs/KEYS.md: one per description, in table order, with
 * the keys of every binding that shares it (↑ ↓ PgUp PgDn …) and the first one's conditions.
 */
export function helpRows(): { keys: string; description: MessageKey; when: When }[] {
  const rows = new Map<MessageKey, { keys: string[]; description: MessageKey; when: When }>();
  for (const b of BINDINGS) {
    if (!b.description) continue;
    const row = rows.get(b.description);
    if (row) {
      for (const k of b.keys) if (!row.keys.includes(k)) row.keys.push(k);
    } else rows.set(b.description, { keys: [...b.keys], description: b.description, when: b.when });
  }
  return [...rows.values()].map((r) => ({ ...r, keys: r.keys.join(' ') }));
}
