/**
 * What the screen may paint outside Ink's frames: a few rows at once, when the screen shows
 * what the caller expects there (the frame writer's `patch`). The screen session provides
 * the real frame writer; elsewhere (tests with ink-testing-library) there is none, and
 * everything waits for Ink's frame as usual.
 */
import { createContext } from 'react';

export interface RowPainter {
  patch(top: number, before: readonly string[], after: readonly string[]): boolean;
}

export const RowPainterContext = createContext<RowPainter | undefined>(undefined);
