/**
 * An independent terminal for renderer tests: @xterm/headless, the emulator VS Code's
 * terminal is built on, fed the bytes the renderer wrote. What it shows is judged by a
 * terminal nobody on this project wrote, not by the renderer's own model of one (pi-tui's
 * `test/virtual-terminal.ts` does the same).
 */
import xterm from '@xterm/headless';

export interface XtermScreen {
  /** Feeds `bytes` to the terminal; resolves once it has parsed them. */
  write(bytes: string): Promise<void>;
  /**
   * The text of every row: styles dropped, a wide character once, trailing spaces trimmed
   * (a space written and a cell never written look the same; Ink trims rows, but not the
   * spaces inside a style that runs to the row's end).
   */
  lines(): string[];
  /** The terminal gets a new size (as a window resize does; the renderer is told separately). */
  resize(columns: number, rows: number): void;
  dispose(): void;
}

/** A `columns`×`rows` terminal that has been written nothing yet. */
export function xtermScreen(columns: number, rows: number): XtermScreen {
  const term = new xterm.Terminal({
    cols: columns,
    rows,
    allowProposedApi: true,
    // No scrollback: rows that scroll off the top are gone, as on the alternate screen.
    scrollback: 0,
  });
  return {
    write: (bytes) => new Promise<void>((resolve) => term.write(bytes, resolve)),
    lines() {
      const buffer = term.buffer.active;
      const out: string[] = [];
      for (let y = 0; y < term.rows; y++)
        out.push((buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '').trimEnd());
      return out;
    },
    resize: (c, r) => term.resize(c, r),
    dispose: () => term.dispose(),
  };
}

/** A frame's rows as the terminal's text: escape codes dropped, trailing blanks trimmed. */
export function screenText(frameRows: readonly string[], rows: number): string[] {
  return Array.from({ length: rows }, (_, i) =>
    // eslint-disable-next-line no-control-regex
    (frameRows[i] ?? '').replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g, '').trimEnd(),
  );
}
