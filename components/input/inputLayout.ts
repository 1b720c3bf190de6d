/**
 * The input text laid out in rows for the box: hard-wrapped by display width (no word
 * breaks, so every character keeps its place) with the cursor's row and column.
 */
import { graphemes, displayWidth } from '../text/wrap.js';

interface InputRow {
  text: string;
  /** Index in the value where this row starts. */
  start: number;
}

interface InputLayout {
  rows: InputRow[];
  cursorRow: number;
  /** Index into that row's text. */
  cursorCol: number;
}

export function layoutInput(value: string, cursor: number, width: number): InputLayout {
  const w = Math.max(1, width);
  const rows: InputRow[] = [];
  let offset = 0;
  for (const para of value.split('\n')) {
    let text = '';
    let used = 0;
    let start = offset;
    for (const g of graphemes(para)) {
      const gw = displayWidth(g);
      if (used + gw > w && text !== '') {
        rows.push({ text, start });
        start += text.length;
        text = '';
        used = 0;
      }
      text += g;
      used += gw;
    }
    rows.push({ text, start });
    offset += para.length + 1;
  }
  let cursorRow = rows.length - 1;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const next = rows[i + 1];
    // The cursor belongs to the last row that starts at or before it.
    if (cursor >= r.start && (next === undefined || cursor < next.start)) {
      cursorRow = i;
      break;
    }
  }
  const row = rows[cursorRow]!;
  return { rows, cursorRow, cursorCol: Math.min(row.text.length, Math.max(0, cursor - row.start)) };
}
