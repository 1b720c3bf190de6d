/**
 * The store keeps only the newest tool-log entries; scrolling the log past the oldest it
 * keeps reads older ones back from the history, and following the newest drops them again.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { resultMessage } from '../../src/protocol/resultMessage.js';
import { MAX_TOOL_LOG } from '../../src/store/reducer.js';
import { createFakeController, toolEntry } from '../helpers/fakeController.js';
import { KEY, renderApp, type Harness } from '../helpers/renderApp.js';

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const STORED = MAX_TOOL_LOG + 150;
const LIVE = 200;

/** A stored session whose tool calls were `read("f<i>")`, each answered `body <i>`. */
function storedSession() {
  return Array.from({ length: STORED }, (_, i) =>
    resultMessage({ call: `read("f${i}")`, ok: true, body: `body ${i}` }, 0, `r${i}#0`),
  );
}

describe('the tool log over a long session', () => {
  test('the store keeps at most its cap, however many calls come', () => {
    const c = createFakeController({ machine: 'AWAITING_INPUT' });
    c.emit({ type: 'history_loaded', messages: storedSession() });
    expect(c.store.getState().toolLog).toHaveLength(MAX_TOOL_LOG);
    for (let i = 0; i < 3 * MAX_TOOL_LOG; i++) {
      c.emit({ type: 'tool_end', entry: toolEntry({ callId: `live-${i}`, call: `ls("${i}")` }) });
      expect(c.store.getState().toolLog.length).toBeLessThanOrEqual(MAX_TOOL_LOG);
    }
    expect(c.store.getState().toolLog.at(-1)?.callId).toBe(`live-${3 * MAX_TOOL_LOG - 1}`);
  });

  test('scrolling back past the cap shows the older calls from the history', async () => {
    const c = createFakeController({ machine: 'AWAITING_INPUT' });
    c.emit({ type: 'history_loaded', messages: storedSession() });
    for (let i = 0; i < LIVE; i++)
      c.emit({ type: 'tool_end', entry: toolEntry({ callId: `live-${i}`, call: `ls("${i}")` }) });
    const kept = c.store.getState().toolLog;
    expect(kept).toHaveLength(MAX_TOOL_LOG);
    const total = STORED + LIVE;
    const firstKept = total - MAX_TOOL_LOG + 1; // its place in the whole log, from 1

    h = await renderApp({ c });
    h.press(KEY.shiftTab);
    await h.waitFor((x) => x.includes('━━ Tools') && x.includes(`${MAX_TOOL_LOG}/${MAX_TOOL_LOG}`));
    // Home: the oldest entry kept is selected, and everything older is read back above it.
    h.press(KEY.home);
    await h.waitFor((x) => x.includes(`${firstKept}/${total}`));
    // Home again: the very first call of the session, which the store no longer holds.
    h.press(KEY.home);
    const top = await h.waitFor((x) => x.includes(` 1/${total} `));
    expect(top).toContain('read("f0")');
    expect(c.store.getState().toolLog).toHaveLength(MAX_TOOL_LOG);
    // Its full result comes from the history too.
    h.press(KEY.enter);
    await h.waitFor((x) => x.includes('body 0'));
    h.press(KEY.esc);
    await h.waitFor((x) => x.includes('━━ Tools') && x.includes(` 1/${total} `));
    // One step down from there is the next older call, read back the same way.
    h.press(KEY.down);
    await h.waitFor((x) => x.includes(` 2/${total} `) && x.includes('read("f1")'));
    // End follows the newest again: only what the store keeps is shown.
    h.press(KEY.end);
    await h.waitFor((x) => x.includes(`${MAX_TOOL_LOG}/${MAX_TOOL_LOG}`));
  });

  test('↑ past the oldest entry kept reads a page back, step by step', async () => {
    const c = createFakeController({ machine: 'AWAITING_INPUT' });
    c.emit({ type: 'history_loaded', messages: storedSession() });
    h = await renderApp({ c });
    h.press(KEY.shiftTab);
    await h.waitFor((x) => x.includes(`${MAX_TOOL_LOG}/${MAX_TOOL_LOG}`));
    h.press(KEY.home);
    await h.waitFor((x) => x.includes(`151/${STORED}`));
    h.press(KEY.up);
    await h.waitFor((x) => x.includes(`150/${STORED}`) && x.includes(`read("f149")`));
  });
});
