/**
 * What a spinner tick and a typed key cost: the spinners turn in the leaves that show them
 * (the status bar, the reasoning title, the tool line), so a tick re-renders those and not
 * the panes around them; a key re-renders the input line and the hints, not the panes. Each
 * pane is wrapped here to count its renders.
 */
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { loadHighlighter } from '../../components/markdown/highlightLoad.js';
import { SPINNER_FRAMES } from '../../components/hooks/useSpinner.js';
import { createFakeController, toolEntry } from '../helpers/fakeController.js';
import { KEY, renderApp, type Harness } from '../helpers/renderApp.js';
import { makeMessage } from '../../src/core/messages.js';
import { replyUpdates } from '../helpers/replyParts.js';

const { renders, counting } = vi.hoisted(() => {
  const renders = { reply: 0, reasoning: 0, tools: 0, status: 0, input: 0 };
  /** A module factory: the module as it is, its component `name` counting into `key`. */
  const counting =
    (key: keyof typeof renders, name: string) =>
    async (importOriginal: () => Promise<Record<string, unknown>>) => {
      const m = await importOriginal();
      const inner = m[name] as (props: unknown) => unknown;
      return {
        ...m,
        [name]: (props: unknown) => {
          renders[key]++;
          return inner(props);
        },
      };
    };
  return { renders, counting };
});

vi.mock('../../components/panes/ReplyPane.js', counting('reply', 'ReplyPane'));
vi.mock('../../components/panes/ReasoningPane.js', counting('reasoning', 'ReasoningPane'));
vi.mock('../../components/panes/ToolLogPane.js', counting('tools', 'ToolLogPane'));
vi.mock('../../components/StatusBar.js', counting('status', 'StatusBar'));
vi.mock('../../components/InputBox.js', counting('input', 'InputBox'));

let h: Harness | undefined;
// The code highlighter loads in the background and redraws the conversation once ready:
// loaded first, so that redraw cannot land inside a measurement.
beforeAll(() => loadHighlighter());
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const glyph = (f: string): string | undefined =>
  SPINNER_FRAMES.find((s) => f.split('\n')[0]!.startsWith(`● Thinking ${s}`));

describe('spinner ticks', () => {
  test('turn the spinners without re-rendering the conversation or the reasoning', async () => {
    const c = createFakeController({ machine: 'THINKING' });
    h = await renderApp({ c });
    c.emit({ type: 'request_start', turnId: 1, promptTokens: 5 });
    c.emit({ type: 'reasoning_delta', turnId: 1, text: 'weighing the options' });
    c.emit(replyUpdates()('A reply in progress'));
    c.emit({ type: 'tool_start', entry: toolEntry({ status: 'running', summary: undefined }) });
    const first = await h.waitFor(
      (f) => glyph(f) !== undefined && f.includes('A reply in progress') && f.includes('ls(".")'),
    );
    // One tick first, so that the renders of the events themselves are all done.
    const settled = await h.waitFor((f) => glyph(f) !== undefined && glyph(f) !== glyph(first));
    const before = { ...renders };
    // Three more ticks of the status bar's spinner.
    const seen = new Set([glyph(settled)]);
    while (seen.size < 4) seen.add(glyph(await h.waitFor((f) => !seen.has(glyph(f)))));
    // The reasoning title and the running tool line turn too.
    const spins = (f: string): string[] =>
      f
        .split('\n')
        .filter((l) => l.includes('Reasoning') || l.includes('ls(".")'))
        .map((l) => SPINNER_FRAMES.find((s) => l.includes(s)) ?? '');
    const at = spins(h.frame());
    await h.waitFor((f) => spins(f).every((s, i) => s !== '' && s !== at[i]));
    expect({ reply: renders.reply, reasoning: renders.reasoning }).toEqual({
      reply: before.reply,
      reasoning: before.reasoning,
    });
    // Nor the screen around them (the input line is drawn with every frame of the screen).
    expect(renders.input).toBe(before.input);
  });
});

describe('typed keys', () => {
  test('re-render the input line, not the panes or the status bar', async () => {
    const c = createFakeController({ machine: 'AWAITING_INPUT' });
    for (let i = 1; i <= 40; i++)
      c.emit({ type: 'message_added', message: makeMessage('assistant', `Earlier reply ${i}`) });
    c.emit({ type: 'tool_start', entry: toolEntry({ status: 'ok' }) });
    h = await renderApp({ c });
    await h.waitFor((f) => f.includes('Earlier reply 40') && f.includes('ls(".")'));
    const before = { ...renders };
    h.type('hello');
    await h.waitFor((f) => f.includes('hello'));
    expect(renders.input - before.input).toBeGreaterThanOrEqual(1);
    expect({ ...renders, input: 0 }).toEqual({ ...before, input: 0 });
    // Scrolling redraws the conversation (and still not the others).
    h.press(KEY.pgUp);
    await h.waitFor((f) => /↑\d+/.test(f));
    expect(renders.reply).toBeGreaterThan(before.reply);
    expect([renders.reasoning, renders.tools, renders.status]).toEqual([
      before.reasoning,
      before.tools,
      before.status,
    ]);
  });
});
