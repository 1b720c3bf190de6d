import { useEffect, useReducer } from 'react';
import { useStdout } from 'ink';

export interface WindowSize {
  columns: number;
  rows: number;
}

/**
 * The terminal size, read at the root on every render and followed on resize. Explicit
 * `columns` / `rows` win (tests pass them: ink-testing-library's stdout has 100 columns and
 * no rows).
 *
 * Read during render rather than kept in state, so that a synchronous re-render made when
 * the terminal resizes (see terminal/session.ts) already has the new size: Ink redraws on
 * 'resize' too, and that redraw must not show a frame at the old size.
 */
export function useWindowSize(columns?: number, rows?: number): WindowSize {
  const { stdout } = useStdout();
  const [, bump] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    // Heard before Ink's own listener (added when Ink was created).
    stdout.prependListener('resize', bump);
    return () => {
      stdout.off('resize', bump);
    };
  }, [stdout]);
  return { columns: columns ?? (stdout.columns || 80), rows: rows ?? (stdout.rows || 24) };
}
