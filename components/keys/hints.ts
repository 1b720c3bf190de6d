/** The key hint line and the help rows, both read from the binding table. */
import type { MessageKey } from '../../src/i18n/messages.js';
import { BINDINGS } from './bindings.js';
import { applies, type KeyContext, type When } from './types.js';

/** The key hints that apply now, in hint order, one per label. */
export function hintsFor(ctx: KeyContext): { keys: string; label: MessageKey }[] {
  const seen = new Set<MessageKey>();
  const out: { keys: string; label: MessageKey; order: number }[] = [];
  for (const b of BINDINGS) {
    if (!b.hint || seen.has(b.hint.label) || !applies(b.when, ctx)) continue;
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
