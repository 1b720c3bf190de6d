import { useEffect, useState } from 'react';
import { useStdout } from 'ink';

export interface WindowSize {
  columns: number;
  rows: number;
}

/**
 * The terminal size, read once at the root and followed on resize. Explicit `columns` /
 * `rows` win (tests pass them: ink-testing-library's stdout has 100 columns and no rows).
 */
export function useWindowSize(columns?: number, rows?: number): WindowSize {
  const { stdout } = useStdout();
  const read = (): WindowSize => ({
    columns: columns ?? (stdout.columns || 80),
    rows: rows ?? (stdout.rows || 24),
  });
  const [size, setSize] = useState<WindowSize>(read);
  useEffect(() => {
    const onResize = (): void => setSize(read());
    onResize();
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
    // read() depends only on these.
  }, [stdout, columns, rows]);
  return size;
}
