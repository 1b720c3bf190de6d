import React, { useReducer, useRef } from 'react';
import { Box, Text } from 'ink';
import { t } from '../../src/i18n/messages.js';
import { useLang } from '../i18n.js';
import { useStepKeys } from './useStepKeys.js';
import { displayWidth, graphemes, truncate } from '../text/wrap.js';
import { resolveListKey } from './keys.js';

/** The pure part of the select list: filtering, and which rows are in view. */

export interface SelectItem<V> {
  /** Stable identity (React key). */
  key: string;
  label: string;
  /** Dim text after the label (a description, "running here"). */
  detail?: string;
  value: V;
}

/** Items whose label or detail contains `filter` (any case); all of them when it is empty. */
function filterItems<V>(items: readonly SelectItem<V>[], filter: string): SelectItem<V>[] {
  const f = filter.trim().toLowerCase();
  if (f === '') return [...items];
  return items.filter((i) => `${i.label} ${i.detail ?? ''}`.toLowerCase().includes(f));
}

/**
 * The first visible row, moved only as far as needed to keep `cursor` in a window of
 * `rows` rows (so the list does not jump while the cursor moves inside the window).
 */
function scrollTop(prevTop: number, cursor: number, rows: number, count: number): number {
  const r = Math.max(1, rows);
  let top = Math.min(prevTop, Math.max(0, count - r));
  if (cursor < top) top = cursor;
  if (cursor >= top + r) top = cursor - r + 1;
  return Math.max(0, top);
}

interface SelectListProps<V> {
  items: readonly SelectItem<V>[];
  /** The item the cursor starts on (by key); the first when absent or unknown. */
  initialKey?: string | undefined;
  width: number;
  /** Rows for items, the "more" line included. */
  rows: number;
  onSubmit(item: SelectItem<V>): void;
  onBack(): void;
  active?: boolean;
}

interface ListState {
  cursor: number;
  top: number;
  filter: string;
}

/**
 * A list to pick from with ↑/↓ and Enter; typing filters it (long model lists). Only the
 * rows that fit are rendered; a dim line says how many more there are.
 */
export function SelectList<V>(p: SelectListProps<V>): React.JSX.Element {
  const lang = useLang();
  const start = Math.max(
    0,
    p.items.findIndex((i) => i.key === p.initialKey),
  );
  const state = useRef<ListState>({ cursor: start, top: 0, filter: '' });
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const shown = filterItems(p.items, state.current.filter);
  const needMore = shown.length > p.rows;
  const rows = needMore ? Math.max(1, p.rows - 1) : Math.max(1, p.rows);

  const set = (next: Partial<ListState>): void => {
    const merged = { ...state.current, ...next };
    const list = filterItems(p.items, merged.filter);
    merged.cursor = Math.max(0, Math.min(merged.cursor, list.length - 1));
    merged.top = scrollTop(merged.top, merged.cursor, rows, list.length);
    state.current = merged;
    rerender();
  };

  useStepKeys((input, key) => {
    const s = state.current;
    const list = filterItems(p.items, s.filter);
    switch (resolveListKey(input, key)) {
      case 'submit': {
        const item = list[s.cursor];
        if (item) p.onSubmit(item);
        return;
      }
      case 'back':
        // Esc clears a filter first, then goes back.
        return s.filter ? set({ filter: '', cursor: 0, top: 0 }) : p.onBack();
      case 'up':
        return set({ cursor: s.cursor - 1 });
      case 'down':
        return set({ cursor: s.cursor + 1 });
      case 'pageUp':
        return set({ cursor: s.cursor - rows });
      case 'pageDown':
        return set({ cursor: s.cursor + rows });
      case 'deleteBack':
        return set({ filter: graphemes(s.filter).slice(0, -1).join(''), cursor: 0, top: 0 });
      case 'type':
        return set({ filter: s.filter + input.replace(/[\r\n]+/g, ''), cursor: 0, top: 0 });
      default:
        return;
    }
  }, p.active !== false);

  const { cursor, filter } = state.current;
  const top = scrollTop(state.current.top, cursor, rows, shown.length);
  const visible = shown.slice(top, top + rows);
  const below = shown.length - top - visible.length;
  return (
    <Box flexDirection="column" width={p.width}>
      {filter !== '' && (
        <Text color="cyan" wrap="truncate-end">
          {truncate(t(lang, 'setup.filter', { text: filter }), p.width)}
        </Text>
      )}
      {shown.length === 0 && (
        <Text color="yellow" wrap="truncate-end">
          {truncate(t(lang, 'setup.noMatch', { text: filter }), p.width)}
        </Text>
      )}
      {visible.map((item, i) => (
        <ItemRow key={item.key} item={item} selected={top + i === cursor} width={p.width} />
      ))}
      {needMore && below > 0 && (
        <Text dimColor>{`  ↓ ${t(lang, 'setup.more', { count: below })}`}</Text>
      )}
    </Box>
  );
}

/** One item: its label (the cursor's in cyan), and its detail, dim, when there is room. */
function ItemRow<V>({
  item,
  selected,
  width,
}: {
  item: SelectItem<V>;
  selected: boolean;
  width: number;
}): React.JSX.Element {
  const head = truncate(`${selected ? '›' : ' '} ${item.label}`, width);
  const room = width - displayWidth(head) - 2;
  const detail = item.detail && room > 3 ? `  ${truncate(item.detail, room)}` : '';
  return (
    <Text wrap="truncate-end">
      <Text color={selected ? 'cyan' : undefined} bold={selected}>
        {head}
      </Text>
      <Text dimColor>{detail}</Text>
    </Text>
  );
}
