import { useEffect } from 'react';
import { mentionAt } from '../../src/agent/mentionPaths.js';
import type { UiAction } from '../ui/uiReducer.js';
import type { LineState } from './lineEditor.js';

/**
 * Looks up the paths for the `@` mention at the cursor whenever it changes, and hands them to
 * the UI store (which shows them only if that mention is still the one typed: a slow lookup
 * for an older prefix never replaces a newer list). Without `find`, nothing is looked up.
 */
export function useMentionLookup(
  line: LineState,
  closedAt: number | undefined,
  find: ((query: string) => Promise<readonly string[]>) | undefined,
  dispatch: (a: UiAction) => void,
): void {
  const at = find ? mentionAt(line.value, line.cursor) : undefined;
  const start = at?.start;
  const query = at?.query;
  useEffect(() => {
    if (!find || start === undefined || query === undefined || start === closedAt) return;
    let live = true;
    find(query).then(
      (items) => live && dispatch({ type: 'mentionFound', start, query, items }),
      // A failed lookup offers nothing; the mention still attaches on send.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [find, start, query, closedAt, dispatch]);
}
