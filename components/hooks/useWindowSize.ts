import { useStdout } from 'ink';

interface WindowSize {
  columns: number;
  rows: number;
}

/**
 * The terminal size, read at the root on every render. Explicit `columns` / `rows` win
 * (tests pass them: ink-testing-library's stdout has 100 columns and no rows).
 *
 * There is one resize path, and it is not here: the terminal session (terminal/screenSession.ts)
 * hears 'resize' before Ink does and renders the tree again at once, synchronously, so this
 * read already gets the new size and Ink's own redraw never shows a frame at the old one.
 * A listener here as well would only render every resize a second time.
 */
export function useWindowSize(columns?: number, rows?: number): WindowSize {
  const { stdout } = useStdout();
  return { columns: columns ?? (stdout.columns || 80), rows: rows ?? (stdout.rows || 24) };
}
