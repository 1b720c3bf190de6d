/**
 * What a spinner tick costs: the spinners turn in the leaves that show them (the status bar,
 * the reasoning title, the tool line), so a tick re-renders those and not the panes around
 * them. Each pane is wrapped here to count its renders.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import type * as ReasoningPaneModule from '../../components/panes/ReasoningPane.js';
import type * as ReplyPaneModule from '../../components/panes/ReplyPane.js';
import { SPINNER_FRAMES } from '../../components/hooks/useSpinner.js';
import { createFakeController, toolEntry } from '../helpers/fakeController.js';
import { renderApp, type Harness } from '../helpers/renderApp.js';

const renders = vi.hoisted(() => ({ reply: 0, reasoning: 0 }));

vi.mock('../../components/panes/ReplyPane.js', async (importOriginal) => {
  const m = await importOriginal<typeof ReplyPaneModule>();
  return {
    ...m,
    ReplyPane: (p: Parameters<typeof m.ReplyPane>[0]) => {
      renders.reply++;
      return m.ReplyPane(p);
    },
  };
});
vi.mock('../../components/panes/ReasoningPane.js', async (importOriginal) => {
  const m = await importOriginal<typeof ReasoningPaneModule>();
  return {
    ...m,
    ReasoningPane: (p: Parameters<typeof m.ReasoningPane>[0]) => {
      renders.reasoning++;
      return m.ReasoningPane(p);
    },
  };
});

let h: Harness | undefined;
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
    c.emit({ type: 'text_delta', turnId: 1, text: 'A reply in progress' });
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
    expect(renders).toEqual(before);
  });
});
