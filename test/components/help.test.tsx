import React from 'react';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, test } from 'vitest';
import { HelpOverlay } from '../../components/HelpOverlay.js';
import { LangContext } from '../../components/i18n.js';
import { helpRows } from '../../components/keys/hints.js';
import { helpOverlayRows } from '../../components/overlayView.js';
import { createFakeController } from '../helpers/fakeController.js';
import { KEY, renderApp, type Harness } from '../helpers/renderApp.js';
import { waitForFrame } from '../helpers/waitForFrame.js';

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

describe('the help overlay', () => {
  test('lists the key table and the commands', async () => {
    const r = render(
      <HelpOverlay
        width={100}
        height={60}
        offset={0}
        rows={helpOverlayRows('en', 100, ['/help', '/pause'])}
      />,
    );
    const f = await waitForFrame(r.lastFrame, (x) => x.includes('Help: keys and commands'));
    for (const row of helpRows()) expect(f).toContain(row.keys);
    expect(f).toMatch(/Ctrl\+P\s+Pause or resume autonomous thinking/);
    expect(f).toMatch(/y\s+Allow the tool call/);
    expect(f).toContain('Commands');
    expect(f).toContain('/help  /pause');
    r.unmount();
  });

  test('is in Chinese when the screen is', async () => {
    const r = render(
      <LangContext.Provider value="zh">
        <HelpOverlay width={100} height={20} offset={0} rows={helpOverlayRows('zh', 100, [])} />
      </LangContext.Provider>,
    );
    const f = await waitForFrame(r.lastFrame, (x) => x.includes('暂停或继续自主思考'));
    expect(f).toContain('按键');
    r.unmount();
  });

  test('scrolls when it does not fit, and closes', async () => {
    h = await renderApp({ c: createFakeController({ machine: 'AWAITING_INPUT' }), rows: 20 });
    h.press(KEY.f1);
    const first = await h.waitFor((f) => f.includes('Help: keys and commands'));
    expect(first).toContain('Stop the turn in flight');
    h.press(KEY.end);
    const last = await h.waitFor((f) => f.includes('/resume'));
    expect(last).not.toContain('Stop the turn in flight');
    h.press(KEY.home);
    await h.waitFor((f) => f.includes('Stop the turn in flight'));
    h.press(KEY.esc);
    await h.waitFor((f) => f.includes('Conversation'));
  });
});
