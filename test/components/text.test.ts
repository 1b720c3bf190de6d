import { describe, expect, test } from 'vitest';
import { displayWidth, padTo, truncate, wrapLine, wrapText } from '../../components/text/wrap.js';
import { sanitize } from '../../components/text/sanitize.js';
import { GrowingWrap } from '../../components/text/growingWrap.js';
import { graphemes } from '../../components/text/width.js';
import { WrapCache } from '../../components/text/wrapCache.js';
import { formatDuration, formatTokens, shortenPath } from '../../components/text/format.js';

const widths = (rows: string[]): number[] => rows.map(displayWidth);

describe('wrapLine', () => {
  test('breaks ASCII at spaces and never exceeds the width', () => {
    const rows = wrapLine('the quick brown fox jumps over the lazy dog', 10);
    expect(rows).toEqual(['the quick', 'brown fox', 'jumps over', 'the lazy', 'dog']);
    expect(Math.max(...widths(rows))).toBeLessThanOrEqual(10);
  });

  test('splits a word longer than the width', () => {
    expect(wrapLine('abcdefghijkl', 5)).toEqual(['abcde', 'fghij', 'kl']);
  });

  test('CJK characters count two columns and may break anywhere', () => {
    const rows = wrapLine('我的文件夹里有什么东西', 7);
    expect(rows).toEqual(['我的文', '件夹里', '有什么', '东西']);
    for (const w of widths(rows)) expect(w).toBeLessThanOrEqual(7);
  });

  test('mixed CJK and Latin text keeps words whole', () => {
    const rows = wrapLine('打开 report.docx 文件', 12);
    for (const w of widths(rows)) expect(w).toBeLessThanOrEqual(12);
    expect(rows.join('')).toContain('report.docx');
    expect(rows.some((r) => r.includes('report.docx'))).toBe(true);
  });

  test('emoji are two columns and are never split', () => {
    const rows = wrapLine('👍👍👍👍👍', 4);
    expect(rows).toEqual(['👍👍', '👍👍', '👍']);
    const family = '👨‍👩‍👧';
    expect(wrapLine(`${family}${family}`, 2)).toEqual([family, family]);
  });

  test('a width of 1 still terminates', () => {
    expect(wrapLine('中a', 1)).toEqual(['中', 'a']);
  });
});

describe('wrapText', () => {
  test('keeps empty lines', () => {
    expect(wrapText('a\n\nb', 10)).toEqual(['a', '', 'b']);
  });
});

describe('truncate and padTo', () => {
  test('cut by display width with an ellipsis', () => {
    expect(truncate('hello world', 6)).toBe('hello…');
    expect(truncate('中文中文', 5)).toBe('中文…');
    expect(displayWidth(padTo('中', 4))).toBe(4);
    expect(truncate('abc', 0)).toBe('');
  });
});

describe('sanitize', () => {
  test('removes escape sequences and control characters', () => {
    expect(sanitize('a\x1b[2Jb\x1b]0;title\x07c\x07d\r\ne\tf')).toBe('abcd\ne    f');
  });
});

describe('WrapCache', () => {
  test('computes once per key and width, and stays bounded', () => {
    const cache = new WrapCache<string[]>(3);
    let made = 0;
    const make = (): string[] => (made++, ['x']);
    cache.get('m1', 80, make);
    cache.get('m1', 80, make);
    cache.get('m1', 40, make);
    expect(made).toBe(2);
    for (let i = 2; i < 50; i++) cache.get(`m${i}`, 80, make);
    // Two generations of three at most, however many messages went by.
    expect(cache.size).toBeLessThanOrEqual(6);
  });

  test('what the last frames drew survives a turnover', () => {
    const cache = new WrapCache<string[]>(3);
    let made = 0;
    const make = (): string[] => (made++, ['x']);
    for (let i = 0; i < 20; i++) {
      // The message on screen is asked for every frame; others scroll past once.
      cache.get('on screen', 80, make);
      cache.get(`passing ${i}`, 80, make);
    }
    expect(made).toBe(21);
  });
});

describe('formatters', () => {
  test('tokens, durations and paths', () => {
    expect(formatTokens(950)).toBe('950');
    expect(formatTokens(1234)).toBe('1.2k');
    expect(formatTokens(1_500_000)).toBe('1.5M');
    expect(formatDuration(85)).toBe('85ms');
    expect(formatDuration(1234)).toBe('1.2s');
    expect(formatDuration(75_000)).toBe('1m15s');
    expect(shortenPath('/home/u/notes', 40, '/home/u')).toBe('~/notes');
    const short = shortenPath('/srv/data/projects/alpha/beta/gamma', 16, '/home/u');
    expect(displayWidth(short)).toBeLessThanOrEqual(16);
    expect(short.endsWith('gamma')).toBe(true);
  });
});

describe('resultsLine', () => {
  test('shows each result of a tool message with its outcome, from its structured results', async () => {
    const { resultsLine } = await import('../../components/panes/conversation.js');
    const { resultMessage } = await import('../../src/protocol/resultMessage.js');
    const ok = resultMessage({ call: 'ls(".")', ok: true, body: 'a.txt' }, 0);
    const failed = resultMessage({ call: 'read("x")', ok: false, body: 'not_found: x' }, 1);
    expect(ok.results).toEqual([{ call: 'ls(".")', ok: true }]);
    expect(resultsLine(ok)).toBe('✓ ls(".")');
    expect(resultsLine(failed)).toBe('✗ read("x")');
    const both = { content: '', results: [...ok.results!, ...failed.results!] };
    expect(resultsLine(both)).toBe('✓ ls(".")  ✗ read("x")');
    expect(resultsLine({ content: 'plain text\nmore' })).toBe('plain text …');
    // A denied call and one that never ran are told apart from a failed one, as in the tool log.
    const denied = {
      call: 'delete("x")',
      ok: false,
      shown: { status: 'denied' as const, args: [] },
    };
    const skipped = { call: 'ls()', ok: false, shown: { status: 'skipped' as const, args: [] } };
    expect(resultsLine({ content: '', results: [denied, skipped] })).toBe('⊘ delete("x")  ↷ ls()');
  });

  test('the pane never reads results out of the text the model was sent', async () => {
    const { resultsLine } = await import('../../components/panes/conversation.js');
    const { formatResultsMessage } = await import('../../src/protocol/format.js');
    const content = formatResultsMessage([{ call: 'ls(".")', ok: true, body: 'a.txt' }]);
    // Without structured results the first line is shown as it is, not parsed.
    expect(resultsLine({ content })).toBe('[RESULT ls(".")] ok …');
    expect(resultsLine({ content, results: [{ call: 'other()', ok: false }] })).toBe('✗ other()');
  });

  test("an old session's tool messages get their results once, when the file is loaded", async () => {
    const { resultsLine } = await import('../../components/panes/conversation.js');
    const { formatResultsMessage } = await import('../../src/protocol/format.js');
    const { parseRecord, serializeRecord } = await import('../../src/history/records.js');
    const { makeMessage } = await import('../../src/core/messages.js');
    const content = formatResultsMessage([
      { call: 'ls(".")', ok: true, body: 'a.txt' },
      { call: 'read("x")', ok: false, body: 'not_found: x' },
    ]);
    const old = makeMessage('tool', content);
    const loaded = parseRecord(serializeRecord({ t: 'msg', m: old }));
    if (!('t' in loaded) || loaded.t !== 'msg') throw new Error('not loaded');
    expect(loaded.m.results).toEqual([
      { call: 'ls(".")', ok: true },
      { call: 'read("x")', ok: false },
    ]);
    expect(resultsLine(loaded.m)).toBe('✓ ls(".")  ✗ read("x")');
    // A malformed field is refused like any other bad field.
    const bad = parseRecord(JSON.stringify({ t: 'msg', m: { ...old, results: [{ call: 1 }] } }));
    expect(bad).toEqual({ problem: 'bad message (bad results)' });
  });
});

describe('GrowingWrap', () => {
  test('wraps a growing text exactly like wrapText, whatever the deltas split', () => {
    const pieces = [
      'The quick brown fox ',
      'jumps over the lazy dog. ',
      '这是一个很长的中文句子，',
      '用来检查换行。\n\n',
      'e',
      '\u0301 combining, then a family ',
      '👨\u200d',
      '👩\u200d👧 and more ',
      'words\nnext line ',
      'averyveryverylongwordthatmustbesplitacrossseveralrows ',
      '',
      'end.',
    ];
    for (const width of [1, 5, 12, 40]) {
      const g = new GrowingWrap(width);
      let text = '';
      for (const p of pieces) {
        text += p;
        expect(g.wrap(text), `width ${width} after ${JSON.stringify(p)}`).toEqual(
          wrapText(text, width),
        );
      }
    }
  });

  test('a text that is not a continuation starts again', () => {
    const g = new GrowingWrap(10);
    g.wrap('hello there world');
    expect(g.wrap('goodbye')).toEqual(['goodbye']);
    expect(g.wrap('')).toEqual(['']);
  });

  test('the work of an update is the size of the delta, not of the text', () => {
    const g = new GrowingWrap(60);
    let text = '';
    let last = 0;
    for (let i = 0; i < 400; i++) {
      text += i % 10 === 9 ? '中文字符。\n' : '中文字符，';
      g.wrap(text);
      expect(g.work - last).toBeLessThanOrEqual(7);
      last = g.work;
    }
  });
});

describe('graphemes of long text', () => {
  test('long strings are segmented in pieces without splitting a character', () => {
    const unit = 'a👨\u200d👩\u200d👧e\u0301中🇯🇵';
    const long = unit.repeat(400);
    const got = graphemes(long);
    expect(got.join('')).toBe(long);
    const whole = Array.from(
      new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(long),
      (x) => x.segment,
    );
    expect(got).toEqual(whole);
    expect(got.length).toBe(graphemes(unit).length * 400);
  });
});
