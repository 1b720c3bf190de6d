import { describe, expect, it } from 'vitest';
import {
  CUT_MARK,
  formatCall,
  formatResultsMessage,
  quoteArg,
  truncateForModel,
} from '../../src/protocol/format.js';
import { parseReply } from '../../src/protocol/parser.js';
import { mulberry32 } from '../helpers/rng.js';
import type { ToolArg } from '../../src/tools/types.js';

const rng = mulberry32;

/** Matches a surrogate that is not part of a pair. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('quoteArg', () => {
  it.each<[ToolArg, string]>([
    ['plain', '"plain"'],
    ['say "hi"', '"say \\"hi\\""'],
    ['C:\\dir', '"C:\\\\dir"'],
    ['a\nb\tc\rd', '"a\\nb\\tc\\rd"'],
    ['\u0000\u001b\u007f', '"\\u0000\\u001b\\u007f"'],
    ['中文 😀', '"中文 😀"'],
    ['\uD800x', '"\\ud800x"'],
    ['\u2028', '"\\u2028"'],
    ["it's", '"it\'s"'],
    [42, '42'],
    [-3.5, '-3.5'],
    [1e21, '1e+21'],
    [-0, '-0'],
    [Number.NaN, 'null'],
    [Number.POSITIVE_INFINITY, 'null'],
    [true, 'true'],
    [false, 'false'],
    [null, 'null'],
  ])('quotes %j as %s', (value, quoted) => {
    expect(quoteArg(value)).toBe(quoted);
  });
});

describe('formatCall', () => {
  it('writes name and comma-separated quoted arguments', () => {
    expect(formatCall('f', ['a', 1, true])).toBe('f("a", 1, true)');
    expect(formatCall('ls', [])).toBe('ls()');
  });

  const next = rng(99);
  const PIECES = [
    '"',
    "'",
    '\\',
    '\\n',
    '\n',
    '\r\n',
    '\t',
    ',',
    ')',
    '(',
    '[/TOOL]',
    '[TOOL]',
    '[WAIT]',
    '`',
    '```',
    '\n```\n',
    '~~~',
    'u',
    '\\u12',
    '中文',
    '😀',
    '\uD83D',
    '\uDE00',
    '\u0000',
    ' ',
    'x',
  ];
  const randomString = (): string => {
    let s = '';
    const len = Math.floor(next() * 12);
    for (let k = 0; k < len; k++) s += PIECES[Math.floor(next() * PIECES.length)];
    return s;
  };
  const randomNumber = (): number => {
    const pick = Math.floor(next() * 5);
    if (pick === 0) return Math.floor((next() - 0.5) * 1e6);
    if (pick === 1) return (next() - 0.5) * 10 ** Math.floor(next() * 40 - 20);
    if (pick === 2) return -0;
    if (pick === 3) return Number.MAX_VALUE * (next() < 0.5 ? 1 : -1);
    return Number.MIN_VALUE;
  };
  const randomArg = (): ToolArg => {
    const pick = Math.floor(next() * 6);
    if (pick <= 2) return randomString();
    if (pick === 3) return randomNumber();
    if (pick === 4) return next() < 0.5;
    return null;
  };
  const randomName = (): string => {
    const first = 'abcxyzABC_';
    const rest = 'abcxyzABC_019.-';
    let name = first[Math.floor(next() * first.length)] ?? 'a';
    const len = Math.floor(next() * 8);
    for (let k = 0; k < len; k++) name += rest[Math.floor(next() * rest.length)];
    return name;
  };

  it('round-trips random arguments through parseReply', () => {
    for (let n = 0; n < 2000; n++) {
      const name = randomName();
      const args = Array.from({ length: Math.floor(next() * 5) }, randomArg);
      const { items } = parseReply('[TOOL] ' + formatCall(name, args) + ' [/TOOL]');
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({ type: 'call', name, args });
    }
  });

  it('round-trips several calls amid prose', () => {
    for (let n = 0; n < 300; n++) {
      const calls = Array.from({ length: 1 + Math.floor(next() * 4) }, () => ({
        name: randomName(),
        args: Array.from({ length: Math.floor(next() * 4) }, randomArg),
      }));
      const reply = calls
        .map((c) => `Now ${n}:\n[TOOL] ${formatCall(c.name, c.args)} [/TOOL]`)
        .join('\n');
      const { items } = parseReply(reply);
      expect(
        items.map((it) => (it.type === 'call' ? { name: it.name, args: it.args } : it)),
      ).toEqual(calls);
    }
  });
});

describe('formatResultsMessage', () => {
  it('packs all results of a reply into one message', () => {
    const message = formatResultsMessage([
      { call: 'ls(".")', ok: true, body: 'a.txt\nb.txt\n' },
      { call: 'read("x")', ok: false, body: 'not_found: x does not exist' },
    ]);
    expect(message).toBe(
      '[RESULT ls(".")] ok\na.txt\nb.txt\n[/RESULT]\n\n' +
        '[RESULT read("x")] error\nnot_found: x does not exist\n[/RESULT]',
    );
  });

  it('notes how much was cut', () => {
    const message = formatResultsMessage([
      { call: 'read("big")', ok: true, body: 'head', truncatedChars: 1234 },
      { call: 'ls()', ok: true, body: 'x', truncatedChars: 0 },
    ]);
    expect(message).toContain('head\n[… 1234 more characters cut …]\n[/RESULT]');
    expect(message.match(/characters cut/g)).toHaveLength(1);
  });

  it('handles an empty body and an empty list', () => {
    expect(formatResultsMessage([{ call: 'mkdir("d")', ok: true, body: '' }])).toBe(
      '[RESULT mkdir("d")] ok\n[/RESULT]',
    );
    expect(formatResultsMessage([])).toBe('');
  });
});

describe('truncateForModel', () => {
  it('leaves a body within budget alone', () => {
    expect(truncateForModel('short', 10)).toEqual({ text: 'short', cutChars: 0 });
    expect(truncateForModel('exact', 5)).toEqual({ text: 'exact', cutChars: 0 });
  });

  it('keeps the head and a bit of the tail within budget', () => {
    const body = Array.from({ length: 2000 }, (_, k) => `line ${k}`).join('\n');
    const { text, cutChars } = truncateForModel(body, 1000);
    expect(text.length).toBeLessThanOrEqual(1000);
    expect(text.startsWith('line 0\nline 1\n')).toBe(true);
    expect(text.endsWith('line 1999')).toBe(true);
    expect(text).toContain(CUT_MARK);
    const [head = '', tail = ''] = text.split(CUT_MARK);
    expect(head.length).toBeGreaterThan(tail.length);
    expect(cutChars).toBe(body.length - head.length - tail.length);
  });

  it('never splits a surrogate pair', () => {
    const body = '😀'.repeat(500);
    for (let budget = 0; budget < 300; budget++) {
      const { text, cutChars } = truncateForModel(body, budget);
      expect(text.length).toBeLessThanOrEqual(budget);
      expect(LONE_SURROGATE.test(text)).toBe(false);
      expect(cutChars).toBeGreaterThan(0);
    }
  });

  it('keeps only the head when the budget is tiny, and nothing for a bad budget', () => {
    expect(truncateForModel('abcdefghij'.repeat(10), 8)).toEqual({
      text: 'abcdefgh',
      cutChars: 92,
    });
    expect(truncateForModel('abc', 0)).toEqual({ text: '', cutChars: 3 });
    expect(truncateForModel('abc', -5)).toEqual({ text: '', cutChars: 3 });
    expect(truncateForModel('abc', Number.NaN)).toEqual({ text: '', cutChars: 3 });
  });
});
