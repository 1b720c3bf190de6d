/**
 * Keystroke echo without waiting for a frame. A key that edits the input line changes the
 * UI store; Ink would show it only after React rendered the whole screen and Ink composed
 * every row again (10–20 ms on a small machine, longer while a reply streams). Instead the
 * store's change paints the input box's new rows at once, with the same row strings the box
 * draws (inputRowTexts, re-encoded as Ink encodes frames: `encodeRow`, through the door into
 * Ink's internals; when that door is shut, on an Ink it was not written for, nothing is echoed). The frame that follows then finds
 * those rows already on screen and writes only what else changed; it comes within a frame
 * (see uiStore.ts), not at once.
 *
 * It paints only when nothing else on screen depends on the edit: the same focus, overlay
 * and number of input rows (a new row moves the layout), no blank redraw frame, and the rows
 * on screen are the ones this hook expects there (the frame writer checks them). Anything
 * else waits for the frame, as before.
 */
import { useContext, useLayoutEffect, useRef } from 'react';
import { inputRowTexts, inputRowsNeeded, type InputRowsProps } from '../input/inputRows.js';
import type { LineState } from '../input/lineEditor.js';
import { RowPainterContext, type RowPainter } from '../terminal/rowPainter.js';
import { encodeRow } from '../terminal/inkInternals.js';
import type { UiStore } from '../ui/uiStore.js';
import type { UiState } from '../ui/uiState.js';

/** The input box as the last frame drew it. */
export interface DrawnInput extends InputRowsProps {
  /** Its first row on screen (0-based). */
  top: number;
  focus: UiState['focus'];
  overlay: UiState['overlay'];
}

interface OnScreen extends DrawnInput {
  /** The frame rows for `line`, once computed. */
  rows?: readonly string[];
}

/**
 * The frame rows the box takes for `line`: its text rows, then blank ones to its height
 * (undefined when rows cannot be encoded as Ink would: then only Ink's frame may draw them).
 */
function inputFrameRows(drawn: InputRowsProps, line: LineState): string[] | undefined {
  const rows: string[] = [];
  for (const text of inputRowTexts({ ...drawn, line })) {
    const row = encodeRow(text, drawn.width);
    if (row === undefined) return undefined;
    rows.push(row);
  }
  while (rows.length < Math.max(1, drawn.height)) rows.push('');
  return rows;
}

function echo(s: UiState, shown: OnScreen, painter: RowPainter): OnScreen | undefined {
  if (s.line === shown.line || s.blank) return undefined;
  if (s.focus !== shown.focus || s.overlay !== shown.overlay) return undefined;
  const needed = (line: LineState): number => inputRowsNeeded(line.value, shown.width);
  if (needed(s.line) !== needed(shown.line)) return undefined;
  const before = shown.rows ?? inputFrameRows(shown, shown.line);
  const after = inputFrameRows(shown, s.line);
  if (!before || !after) return undefined;
  return painter.patch(shown.top, before, after)
    ? { ...shown, line: s.line, rows: after }
    : undefined;
}

/** Paints line edits from `store` at once; `drawn` is the box in the frame being committed. */
export function useFastEcho(store: UiStore, drawn: DrawnInput | undefined): void {
  const painter = useContext(RowPainterContext);
  const onScreen = useRef<OnScreen | undefined>(undefined);
  // After every commit (Ink has written that frame): the box as it is on screen now.
  useLayoutEffect(() => {
    onScreen.current = drawn;
  });
  useLayoutEffect(() => {
    if (!painter) return;
    store.setEcho((state) => {
      const shown = onScreen.current;
      const painted = shown && echo(state, shown, painter);
      if (painted) onScreen.current = painted;
      return painted !== undefined;
    });
    return () => store.setEcho(undefined);
  }, [store, painter]);
}
