import React from 'react';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, test } from 'vitest';
import { HelpOverlay } from '../../components/HelpOverlay.js';
import { LangContext } from '../../components/i18n.js';
import { helpRows } from '../../components/keys/hints.js';
import { helpOverlayRows } from '../../components/overlayView.js';
import { COMMANDS } from '../../src/commands/builtin.js';
import { commandRows } from '../../src/commands/table.js';
import { completeCommand } from '../../src/commands/runner.js';
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
    const rows = helpOverlayRows('en', 100, [
      { usage: '/help', description: 'Show the commands' },
      { usage: '/pause', description: 'Pause autonomous thinking' },
    ]);
    // Tall enough for every row (the key table grows); scrolling is tested below.
    const r = render(<HelpOverlay width={100} height={rows.length + 4} offset={0} rows={rows} />);
    const f = await waitForFrame(r.lastFrame, (x) => x.includes('Help: keys and commands'));
    for (const row of helpRows()) expect(f).toContain(row.keys);
    expect(f).toMatch(/Ctrl\+P\s+Pause or resume autonomous thinking/);
    expect(f).toMatch(/y\s+Allow the tool call/);
    expect(f).toContain('Commands');
    expect(f).toMatch(/\/help\s+Show the commands/);
    expect(f).toMatch(/\/pause\s+Pause autonomous thinking/);
    r.unmount();
  });

  test('in the app: every command of the table with its description; no internal rows', async () => {
    h = await renderApp({
      c: createFakeController({ machine: 'AWAITING_INPUT' }),
      rows: 200,
      complete: completeCommand,
    });
    h.press(KEY.f1);
    const f = await h.waitFor((x) => x.includes('Help: keys and commands') && x.includes('/exit'));
    for (const row of commandRows(COMMANDS, 'en')) {
      // A long usage wraps inside its column: its first 20 characters start the row.
      const line = f.split('\n').find((l) => l.trim().startsWith(row.usage.slice(0, 20)));
      expect(line, row.usage).toBeDefined();
      expect(line).toContain(row.description.slice(0, 20));
    }
    // Catch-all bindings (the keys an overlay swallows) are no rows of the help.
    expect(f).not.toMatch(/^\s*\*\s/m);
    expect(f).not.toContain('Any key closes this');
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
