/**
 * The `@` completion list under the input, as pure functions over the UI state. The paths come
 * from the core (src/agent/mentionPaths.ts) for the mention at the cursor; the list shows
 * them while that mention is still the one being typed, ↑/↓ choose, Tab or Enter put the
 * chosen path in the line, Esc closes the list for this mention without touching the text.
 */
import { mentionAt } from '../../src/agent/mentionPaths.js';
import type { UiState } from '../ui/uiState.js';

/** Paths found for the mention `@query` starting at `start`: shown if it is still typed there. */
export function mentionFound(
  ui: UiState,
  found: { start: number; query: string; items: readonly string[] },
): UiState {
  const at = mentionAt(ui.line.value, ui.line.cursor);
  if (!at || at.start !== found.start || at.query !== found.query) return ui;
  if (ui.mentionClosed === found.start) return ui;
  if (found.items.length === 0) return ui.mention ? { ...ui, mention: undefined } : ui;
  return { ...ui, mention: { ...found, sel: 0 } };
}

/**
 * After the line changed: a list for another mention (or none) closes, and an Esc on a
 * mention no longer typed is forgotten (a new `@` opens a list again).
 */
export function syncMention(ui: UiState): UiState {
  const at = mentionAt(ui.line.value, ui.line.cursor);
  const keep = ui.mention && at && at.start === ui.mention.start && at.query === ui.mention.query;
  const closed = at && at.start === ui.mentionClosed ? ui.mentionClosed : undefined;
  if ((keep || !ui.mention) && closed === ui.mentionClosed) return ui;
  return { ...ui, mention: keep ? ui.mention : undefined, mentionClosed: closed };
}

/** ↑ (-1) / ↓ (+1): the next row, round the ends. */
export function moveMention(ui: UiState, step: 1 | -1): UiState {
  if (!ui.mention) return ui;
  const n = ui.mention.items.length;
  return { ...ui, mention: { ...ui.mention, sel: (ui.mention.sel + step + n) % n } };
}

/**
 * Tab / Enter: the chosen path replaces what was typed after the `@`. A file is followed by
 * a space (the mention is done); a folder is not, so its own paths are offered next.
 */
export function acceptMention(ui: UiState): UiState {
  const m = ui.mention;
  const item = m?.items[m.sel];
  if (!m || item === undefined) return ui;
  const put = `@${item}${item.endsWith('/') ? '' : ' '}`;
  const { value, cursor } = ui.line;
  const line = {
    value: value.slice(0, m.start) + put + value.slice(cursor),
    cursor: m.start + put.length,
  };
  return { ...ui, line, mention: undefined, completions: [] };
}

/** Esc: the list closes for this mention; the text stays as typed. */
export function closeMention(ui: UiState): UiState {
  return ui.mention ? { ...ui, mention: undefined, mentionClosed: ui.mention.start } : ui;
}
