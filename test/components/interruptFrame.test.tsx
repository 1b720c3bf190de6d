/**
 * The frame after an interrupt: the key that stopped a streaming reply is shown in the same
 * frame as the state it led to. The status bar and the hints read the machine state at
 * once, not through the frame clock, so "Your turn" does not wait for the next frame (nor
 * for the stream to wind down) while the typed letter is already on screen.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createFakeController } from '../helpers/fakeController.js';
import { KEY, renderApp, type Harness } from '../helpers/renderApp.js';
import { replyUpdates } from '../helpers/replyParts.js';
import type { AgentEvent } from '../../src/api/events.js';

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

/** The input box's line (the row under the "Input" rule). */
const inputLine = (f: string): string => {
  const rows = f.split('\n');
  const at = rows.findIndex((r) => r.includes('Input'));
  return at === -1 ? '' : (rows[at + 1] ?? '');
};

/** The next piece of the reply in flight. */
let more: (delta: string) => AgentEvent;

async function streaming(): Promise<Harness> {
  const c = createFakeController({ machine: 'THINKING' });
  const harness = await renderApp({ c });
  c.emit({ type: 'request_start', turnId: 1, promptTokens: 5 });
  more = replyUpdates();
  c.emit(more('A reply in progress'));
  await harness.waitFor((f) => f.includes('A reply in progress') && f.includes('● Thinking'));
  return harness;
}

describe('the frame after an interrupt', () => {
  test('a typed key that interrupts is shown together with "Your turn"', async () => {
    h = await streaming();
    const seen = h.frames().length;
    // Another token just before the key: the frame clock is holding changes for its frame.
    h.c.emit(more(' and more'));
    h.press('x');
    await h.waitFor((f) => inputLine(f).includes('x'));
    expect(h.c.methods()).toContain('interrupt');
    const first = h
      .frames()
      .slice(seen)
      .find((f) => inputLine(f).includes('x'))!;
    expect(first.split('\n')[0]).toMatch(/^● Your turn/);
  });

  test('Esc mid-stream: "Your turn" is drawn before the frame clock delivers anything', async () => {
    h = await streaming();
    // From here the frame clock's timer is held, so only an unthrottled read can draw.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      h.c.emit(more(' and more'));
      h.press(KEY.esc);
      // React renders in a microtask; a macrotask later the frame is written.
      await new Promise((r) => setImmediate(r));
      expect(h.c.methods()).toContain('interrupt');
      expect(h.frame().split('\n')[0]).toMatch(/^● Your turn/);
      expect(inputLine(h.frame())).not.toContain('Press any key');
    } finally {
      vi.runOnlyPendingTimers();
      vi.useRealTimers();
    }
  });
});
