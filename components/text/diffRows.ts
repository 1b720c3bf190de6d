/**
 * A unified diff (src/diff/unifiedDiff.ts) as coloured rows, wrapped by display width (CJK
 * takes two columns) rather than cut, for the approval card and the tool detail alike. A
 * wrapped line keeps its `+` / `-` marker on every row, so no piece of an added line can
 * pass for context.
 */
import { diffLineKind, type DiffLineKind } from '../../src/diff/unifiedDiff.js';
import type { Row, Tone } from '../panes/rows.js';
import { sanitize } from './sanitize.js';
import { wrapText } from './wrap.js';

const TONE: Record<DiffLineKind, Tone> = {
  file: 'label',
  hunk: 'notice',
  removed: 'error',
  added: 'ok',
  context: 'plain',
  note: 'dim',
};

/** The rows of `diff` at `width` columns, each starting with `indent`. */
export function diffRows(diff: string, width: number, indent: string): Row[] {
  const rows: Row[] = [];
  diff.split('\n').forEach((raw, i) => {
    const kind = diffLineKind(raw, i);
    const tone = TONE[kind];
    const marked = kind === 'added' || kind === 'removed' || kind === 'context';
    if (!marked) {
      for (const r of wrapText(sanitize(raw), Math.max(1, width - indent.length))) {
        rows.push({ text: indent + r, tone });
      }
      return;
    }
    const mark = raw[0]!;
    const room = Math.max(1, width - indent.length - 1);
    for (const r of wrapText(sanitize(raw.slice(1)), room)) {
      rows.push({ text: `${indent}${mark}${r}`, tone });
    }
  });
  return rows;
}
