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
export function filterItems<V>(items: readonly SelectItem<V>[], filter: string): SelectItem<V>[] {
  const f = filter.trim().toLowerCase();
  if (f === '') return [...items];
  return items.filter((i) => `${i.label} ${i.detail ?? ''}`.toLowerCase().includes(f));
}

/**
 * The first visible row, moved only as far as needed to keep `cursor` in a window of
 * `rows` rows (so the list does not jump while the cursor moves inside the window).
 */
export function scrollTop(prevTop: number, cursor: number, rows: number, count: number): number {
  const r = Math.max(1, rows);
  let top = Math.min(prevTop, Math.max(0, count - r));
  if (cursor < top) top = cursor;
  if (cursor >= top + r) top = cursor - r + 1;
  return Math.max(0, top);
}
