import { afterEach, describe, expect, test } from 'vitest';
import { toolRow } from '../../components/panes/toolRows.js';
import { createFakeController, toolEntry } from '../helpers/fakeController.js';
import { KEY, renderApp, type Harness } from '../helpers/renderApp.js';
import { displayWidth } from '../../components/text/wrap.js';

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

describe('the tool log', () => {
  test('one line per call: status icon, call, short result, duration', () => {
    const row = toolRow(
      toolEntry({ call: 'read("notes.md")', summary: '42 lines', durationMs: 1234 }),
      60,
      false,
      '*',
    );
    expect(row.text.startsWith('✓ read("notes.md")  42 lines')).toBe(true);
    expect(row.text.endsWith(' 1.2s')).toBe(true);
    expect(displayWidth(row.text)).toBe(60);
    expect(toolRow(toolEntry({ status: 'error' }), 40, false, '*').text[0]).toBe('✗');
    expect(toolRow(toolEntry({ status: 'denied' }), 40, false, '*').text[0]).toBe('⊘');
    expect(toolRow(toolEntry({ status: 'running' }), 40, false, '⠋').text[0]).toBe('⠋');
    const long = toolRow(toolEntry({ call: `read("${'x'.repeat(200)}")` }), 40, false, '*');
    expect(displayWidth(long.text)).toBe(40);
  });

  test('empty at first, then the calls as they start and end', async () => {
    const c = createFakeController({ machine: 'THINKING' });
    h = await renderApp({ c });
    await h.waitFor((x) => x.includes('No tool calls yet'));
    const running = toolEntry({
      call: 'fetchPage("https://example.com")',
      name: 'fetchPage',
      status: 'running',
      summary: undefined,
      durationMs: undefined,
    });
    c.emit({ type: 'tool_start', entry: running });
    await h.waitFor((x) => x.includes('fetchPage("https://example.com")'));
    c.emit({
      type: 'tool_end',
      entry: { ...running, status: 'ok', summary: 'Example Domain', durationMs: 340 },
    });
    const f = await h.waitFor((x) => x.includes('Example Domain'));
    expect(f).toMatch(/✓ fetchPage\("https:\/\/example\.com"\)\s+Example Domain\s+340ms/);
  });

  test('↑/↓ select an entry, Enter shows it in full, Esc closes', async () => {
    const c = createFakeController({ machine: 'AWAITING_INPUT' });
    c.emit({
      type: 'tool_end',
      entry: toolEntry({ callId: 'a', call: 'ls(".")', full: 'RESULT A' }),
    });
    c.emit({
      type: 'tool_end',
      entry: toolEntry({
        callId: 'b',
        name: 'grep',
        call: 'grep("TODO", "src")',
        args: ['TODO', 'src'],
        status: 'error',
        errorKind: 'not_found',
        summary: 'no such folder',
        full: 'src: no such folder\nsecond line of the result',
      }),
    });
    c.emit({
      type: 'tool_end',
      entry: toolEntry({ callId: 'c', call: 'read("z")', full: 'RESULT C' }),
    });
    h = await renderApp({ c });
    h.press(KEY.shiftTab);
    await h.waitFor((x) => x.includes('━━ Tools') && x.includes('3/3'));
    h.press(KEY.up); // selects the newest
    await h.waitFor((x) => x.includes('3/3'));
    h.press(KEY.up);
    await h.waitFor((x) => x.includes('2/3'));
    h.press(KEY.enter);
    const f = await h.waitFor((x) => x.includes('second line of the result'));
    expect(f).toContain('grep ✗ failed');
    expect(f).toContain('  1. TODO');
    expect(f).toContain('  2. src');
    expect(f).toContain('[not_found]');
    expect(f).not.toContain('━━ Conversation');
    h.press(KEY.esc);
    await h.waitFor((x) => x.includes('Conversation') && x.includes('2/3'));
    h.press(KEY.home);
    await h.waitFor((x) => x.includes('1/3'));
    h.press(KEY.end);
    await h.waitFor((x) => x.includes('3/3'));
  });

  test('the expanded view scrolls, and follows a call that is still running', async () => {
    const c = createFakeController({ machine: 'THINKING' });
    const e = toolEntry({ callId: 'r', status: 'running', full: undefined, summary: undefined });
    c.emit({ type: 'tool_start', entry: e });
    h = await renderApp({ c, rows: 22 });
    h.press(KEY.shiftTab);
    await h.waitFor((x) => x.includes('Tools'));
    h.press(KEY.enter);
    await h.waitFor((x) => x.includes('ls … running'));
    const full = Array.from({ length: 40 }, (_, i) => `result line ${i + 1}`).join('\n');
    c.emit({ type: 'tool_end', entry: { ...e, status: 'ok', full, durationMs: 5 } });
    await h.waitFor((x) => x.includes('ls ✓ done · 5ms') && x.includes('result line 1'));
    h.press(KEY.pgDn, KEY.pgDn);
    const f = await h.waitFor((x) => !x.includes('result line 1\n') && /result line \d\d/.test(x));
    expect(f).toMatch(/\d+\/\d+ ↕/);
    h.press(KEY.home);
    await h.waitFor((x) => x.includes('Arguments'));
  });
});
