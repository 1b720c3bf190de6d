import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { makeMessage } from '../../src/core/messages.js';
import { markdownLines, MarkdownStream, type Line } from '../../components/markdown/markdown.js';
import { loadHighlighter } from '../../components/markdown/highlightLoad.js';
import { hyperlink, supportsHyperlinks } from '../../components/markdown/hyperlinks.js';
import { spanText, type SpanStyle } from '../../components/markdown/spans.js';
import { fitColumns } from '../../components/markdown/table.js';
import { displayWidth } from '../../components/text/wrap.js';
import { createFakeController } from '../helpers/fakeController.js';
import { renderApp, type Harness } from '../helpers/renderApp.js';

const text = (lines: readonly Line[]): string[] => lines.map((l) => spanText(l).trimEnd());
/** The style of the first span of `lines` whose text contains `needle`. */
const styleOf = (lines: readonly Line[], needle: string): SpanStyle | undefined =>
  lines.flat().find((s) => s.text.includes(needle))?.style;

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});
beforeAll(async () => {
  await loadHighlighter();
});

describe('Markdown lines (bare)', () => {
  test('headings lose their # and are bold', () => {
    const lines = markdownLines('# Title\n\n## Sub *part*\n\ntext', 40);
    expect(text(lines)).toEqual(['Title', '', 'Sub part', '', 'text']);
    expect(styleOf(lines, 'Title')).toMatchObject({ bold: true });
    expect(styleOf(lines, 'part')).toMatchObject({ bold: true, italic: true });
  });

  test('emphasis, strikethrough and inline code are styled without their markers', () => {
    const lines = markdownLines('a **bold** b *it* c ~~gone~~ d `x = 1` &amp; e', 80);
    expect(text(lines)).toEqual(['a bold b it c gone d x = 1 & e']);
    expect(styleOf(lines, 'bold')).toMatchObject({ bold: true });
    expect(styleOf(lines, 'it')).toMatchObject({ italic: true });
    expect(styleOf(lines, 'gone')).toMatchObject({ strikethrough: true });
    expect(styleOf(lines, 'x = 1')).toMatchObject({ color: 'yellow' });
  });

  test('a styled paragraph wraps by width and keeps each word its style', () => {
    const lines = markdownLines('one two **three four five** six seven eight', 12);
    expect(text(lines)).toEqual(['one two', 'three four', 'five six', 'seven eight']);
    expect(styleOf(lines, 'five')).toMatchObject({ bold: true });
    expect(lines[2]!.find((s) => s.text.includes('six'))?.style?.bold).toBeFalsy();
  });

  test('fenced code is kept verbatim (never re-wrapped) and highlighted', () => {
    const code = 'const veryLongName = computeSomething(alpha, beta, gamma); // note';
    const lines = markdownLines(`\`\`\`ts\n${code}\n  indented();\n\`\`\``, 30);
    expect(text(lines)).toEqual(['ts', `▎ ${code}`, '▎   indented();']);
    expect(styleOf(lines, 'const')).toMatchObject({ color: 'magenta' });
    expect(styleOf(lines, '// note')).toMatchObject({ dimColor: true });
  });

  test('code in an unknown language is shown plain', () => {
    const lines = markdownLines('```nosuchlang\nx <- 1\n```', 30);
    expect(text(lines)).toEqual(['nosuchlang', '▎ x <- 1']);
    expect(lines[1]!.slice(1).every((s) => !s.style)).toBe(true);
  });

  test('bullet, numbered, nested and task lists', () => {
    const md = '- one\n- two\n  1. first\n  2. second\n- [x] done\n- [ ] todo\n\n3. three\n4. four';
    expect(text(markdownLines(md, 40))).toEqual([
      '• one',
      '• two',
      '  1. first',
      '  2. second',
      '• ☑ done',
      '• ☐ todo',
      '',
      '3. three',
      '4. four',
    ]);
  });

  test('a long list item wraps under its own text, not under the bullet', () => {
    expect(text(markdownLines('- alpha beta gamma delta', 12))).toEqual([
      '• alpha beta',
      '  gamma',
      '  delta',
    ]);
  });

  test('block quotes get a bar, rules a line across', () => {
    expect(text(markdownLines('> quoted\n> text\n\n---\n\nafter', 10))).toEqual([
      '│ quoted',
      '│ text',
      '',
      '──────────',
      '',
      'after',
    ]);
  });

  test('links show their text and their URL; a bare URL once', () => {
    const lines = markdownLines('see [the docs](https://x.dev/a) or <https://y.dev>', 80);
    expect(text(lines)).toEqual(['see the docs (https://x.dev/a) or https://y.dev']);
    expect(styleOf(lines, 'the docs')).toMatchObject({ link: 'https://x.dev/a' });
    expect(hyperlink('t', 'https://a/\x1b]x')).toBe('\x1b]8;;https://a/]x\x07t\x1b]8;;\x07');
    expect(supportsHyperlinks({ TERM_PROGRAM: 'iTerm.app' })).toBe(true);
    expect(supportsHyperlinks({ TERM_PROGRAM: 'iTerm.app', TMUX: '/tmp/t' })).toBe(false);
    expect(supportsHyperlinks({})).toBe(false);
  });

  test('table columns line up by display width, CJK and emoji counted as two', () => {
    const md = '| 名称 | qty | note |\n|:--|--:|:-:|\n| 苹果🍎 | 12 | ok |\n| pear | 3 | 很好 |';
    const lines = text(markdownLines(md, 60));
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/^─+┼─+┼─+$/);
    // Every row has its column bars at the same display columns.
    const bars = (l: string): number[] => {
      const out: number[] = [];
      let col = 0;
      for (const ch of l) {
        if (ch === '│' || ch === '┼') out.push(col);
        col += displayWidth(ch);
      }
      return out;
    };
    for (const l of lines) expect(bars(l)).toEqual(bars(lines[1]!));
    // Right-aligned numbers end at the bar.
    expect(lines[2]).toContain(' 12 │');
    expect(lines[3]).toContain('  3 │');
  });

  test('a table too wide for the pane wraps its widest cells', () => {
    const long = 'word '.repeat(20).trim();
    const lines = text(markdownLines(`| a | b |\n|---|---|\n| x | ${long} |`, 30));
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(30);
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.join(' ').match(/word/g)).toHaveLength(20);
    expect(fitColumns([10, 100], 30)).toEqual([10, 17]);
  });
});

describe('Markdown while it streams', () => {
  test('a stream that ends mid-fence shows the code so far, no fence markers', () => {
    const stream = new MarkdownStream();
    const full = 'Here:\n\n```python\ndef f(x):\n    return x * 2\n';
    let lines: Line[] = [];
    for (let i = 1; i <= full.length; i++) lines = stream.lines(full.slice(0, i), 40);
    expect(text(lines)).toEqual(['Here:', '', 'python', '▎ def f(x):', '▎     return x * 2']);
    expect(text(lines).join('\n')).not.toContain('```');
  });

  test('a half-written table renders as a table as soon as its rule arrives', () => {
    const stream = new MarkdownStream();
    expect(text(stream.lines('| a | b |\n|---|---|', 40))[1]).toMatch(/^─+┼─+$/);
    const lines = text(stream.lines('| a | b |\n|---|---|\n| 1 | 2', 40));
    expect(lines[1]).toMatch(/^─+┼─+$/);
    expect(lines[2]).toMatch(/^1 +│ 2$/);
  });

  test('streamed in pieces, the lines equal a full render and only the tail is lexed', () => {
    const block =
      '## Part\n\nSome **bold** text and `code`.\n\n- a\n- b\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\n';
    const full = block.repeat(40);
    const stream = new MarkdownStream();
    let lines: Line[] = [];
    let most = 0;
    for (let i = 0; i < full.length; i += 7) {
      const before = stream.lexed;
      lines = stream.lines(full.slice(0, i + 7), 50);
      most = Math.max(most, stream.lexed - before);
    }
    expect(text(lines)).toEqual(text(markdownLines(full, 50)));
    // Never more than about one block's worth per update, though the reply is 40 blocks long.
    expect(most).toBeLessThan(block.length);
  });
});

describe('Markdown in the reply pane', () => {
  test('a reply shows no raw Markdown markers', async () => {
    const c = createFakeController({ machine: 'AWAITING_INPUT' });
    const md =
      '# Plan\n\n**Bold** and *soft* with `code`.\n\n```js\nlet a = 1;\n```\n\n| k | v |\n|---|---|\n| a | 1 |\n\n- item\n\n> quote';
    c.emit({ type: 'message_added', message: makeMessage('assistant', md) });
    h = await renderApp({ c, rows: 50 });
    const f = await h.waitFor((x) => x.includes('let a = 1;'));
    expect(f).toContain('◆ Plan');
    expect(f).toContain('Bold and soft with code.');
    expect(f).toContain('• item');
    expect(f).toContain('│ quote');
    for (const raw of ['**', '```', '|---|', '# Plan', '`code`']) expect(f).not.toContain(raw);
  });

  test('a 10,000-line reply renders only its visible rows', async () => {
    const c = createFakeController({ machine: 'AWAITING_INPUT' });
    const body = Array.from({ length: 10_000 }, (_, i) => `- line **${i}**`).join('\n');
    c.emit({ type: 'message_added', message: makeMessage('assistant', body) });
    const t0 = performance.now();
    h = await renderApp({ c });
    const f = await h.waitFor((x) => x.includes('• line 9999'));
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect(f).toContain('• line 9990');
    expect(f).not.toContain('line 100 ');
    // The frame is the screen, not the reply: at most 30 rows whatever the reply's length.
    expect(f.split('\n').length).toBeLessThanOrEqual(30);
    // A keystroke after that does not rebuild the 10,000 lines (the rows are cached).
    const t1 = performance.now();
    h.type('x');
    await h.waitFor((x) => x.includes('› x'));
    expect(performance.now() - t1).toBeLessThan(1_000);
  });
});
