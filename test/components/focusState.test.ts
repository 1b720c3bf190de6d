/**
 * The screen's focus state tells its listeners each change (an attached screen forwards them
 * to the background agent), once per change, and leaving the screen counts as focused again.
 */
import { describe, expect, it } from 'vitest';
import { createFocusState } from '../../components/terminal/focusReporting.js';

describe('the focus state', () => {
  it('reports each change once, and focus back when the screen is left', () => {
    const focus = createFocusState();
    const out: string[] = [];
    const seen: boolean[] = [];
    const leave = focus.start({ write: (c) => out.push(c) });
    const stop = focus.onChange((f) => seen.push(f));
    focus.report(false);
    focus.report(false);
    focus.report(true);
    focus.report(false);
    leave();
    expect(seen).toEqual([false, true, false, true]);
    expect(focus.focused).toBe(true);
    stop();
    focus.report(false);
    expect(seen).toHaveLength(4);
    expect(out).toEqual(['\x1b[?1004h', '\x1b[?1004l']);
  });
});
