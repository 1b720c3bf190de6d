import { describe, expect, it } from 'vitest';
import { parseReply } from '../../src/protocol/parser.js';
import type { ToolArg } from '../../src/tools/types.js';
import { mulberry32 as rng } from '../helpers/rng.js';

/** An expected item: a call `[name, args]`, or a malformed call with a pattern its error matches. */
type Expected = [string, ToolArg[]] | { bad: RegExp; name?: string };

interface Case {
  name: string;
  reply: string;
  items: Expected[];
  wait?: boolean;
}

function check(reply: string, expected: Expected[]): void {
  const { items } = parseReply(reply);
  expect(items.map((it) => it.type)).toEqual(
    expected.map((e) => (Array.isArray(e) ? 'call' : 'malformed')),
  );
  items.forEach((item, k) => {
    const want = expected[k];
    if (want === undefined) return;
    if (Array.isArray(want)) {
      expect(item.type === 'call' ? [item.name, item.args] : item.error).toEqual(want);
    } else {
      expect(item.type).toBe('malformed');
      if (item.type !== 'malformed') return;
      expect(item.error).toMatch(want.bad);
      if (want.name !== undefined) expect(item.name).toBe(want.name);
    }
  });
}

const T = (body: string): string => `[TOOL] ${body} [/TOOL]`;

const wellFormed: Case[] = [
  {
    name: 'comma inside a string',
    reply: T('create("a.txt", "x, y")'),
    items: [['create', ['a.txt', 'x, y']]],
  },
  { name: 'zero arguments', reply: T('ls()'), items: [['ls', []]] },
  {
    name: 'parentheses inside a string',
    reply: T('create("a.txt", "f(x) = (y))")'),
    items: [['create', ['a.txt', 'f(x) = (y))']]],
  },
  {
    name: 'escaped double quotes',
    reply: T('create("a.txt", "say \\"hi\\", ok")'),
    items: [['create', ['a.txt', 'say "hi", ok']]],
  },
  {
    name: '[/TOOL] inside a string',
    reply: T('create("a.md", "end with [/TOOL] here")'),
    items: [['create', ['a.md', 'end with [/TOOL] here']]],
  },
  {
    name: 'a whole call inside a string',
    reply: T('create("a.md", "use [TOOL] ls(\\".\\") [/TOOL]")'),
    items: [['create', ['a.md', 'use [TOOL] ls(".") [/TOOL]']]],
  },
  {
    name: 'single quotes holding double quotes',
    reply: T(`create('a.txt', 'he said "hi"')`),
    items: [['create', ['a.txt', 'he said "hi"']]],
  },
  {
    name: 'escaped single quote',
    reply: T(`write('it\\'s', "it's")`),
    items: [['write', ["it's", "it's"]]],
  },
  {
    name: 'standard escapes',
    reply: T('f("a\\nb\\tc\\rd\\\\e\\u00e9\\u{1F600}\\ud83d\\ude00")'),
    items: [['f', ['a\nb\tc\rd\\eé😀😀']]],
  },
  {
    name: 'unknown escapes keep the backslash',
    reply: T('f("C:\\Users\\dir", "\\d+\\.\\w", "\\x41\\0")'),
    items: [['f', ['C:\\Users\\dir', '\\d+\\.\\w', '\\x41\\0']]],
  },
  {
    name: 'a string spanning lines',
    reply: T('create("a.txt", "line 1\nline 2\n\n  line 4\n")'),
    items: [['create', ['a.txt', 'line 1\nline 2\n\n  line 4\n']]],
  },
  {
    name: 'CJK and emoji',
    reply: T('create("笔记/日记.md", "今天很好 😀👍🏽, 对吧？")'),
    items: [['create', ['笔记/日记.md', '今天很好 😀👍🏽, 对吧？']]],
  },
  {
    name: 'numbers',
    reply: T('f(42, -7, 3.25, 1e3, -2.5E-2, .5, 0)'),
    items: [['f', [42, -7, 3.25, 1000, -0.025, 0.5, 0]]],
  },
  {
    name: 'true, false and null',
    reply: T('f(true, false, null)'),
    items: [['f', [true, false, null]]],
  },
  {
    name: 'trailing comma',
    reply: T('read("a.txt", 1, 20,)'),
    items: [['read', ['a.txt', 1, 20]]],
  },
  {
    name: 'whitespace and newlines everywhere',
    reply: '[TOOL]\n  read (\n    "a.txt" ,\n    10\n  )\n[/TOOL]',
    items: [['read', ['a.txt', 10]]],
  },
  { name: 'no spaces at all', reply: '[TOOL]ls(".")[/TOOL]', items: [['ls', ['.']]] },
  { name: 'case-insensitive tags', reply: '[tool] ls() [/Tool]', items: [['ls', []]] },
  {
    name: 'several calls in order',
    reply: `First.\n${T('ls(".")')}\nThen ${T('read("a")')} and ${T('grep("x", "src")')}`,
    items: [
      ['ls', ['.']],
      ['read', ['a']],
      ['grep', ['x', 'src']],
    ],
  },
  {
    name: 'names with _ . - and digits',
    reply: T('fetch_page2()') + T('mcp.fs-read("x")'),
    items: [
      ['fetch_page2', []],
      ['mcp.fs-read', ['x']],
    ],
  },
  {
    name: 'fences and backticks inside a string argument',
    reply: `${T('create("README.md", "# T\n```js\nconst a = `x`;\n```\n")')}\n${T('ls()')}`,
    items: [
      ['create', ['README.md', '# T\n```js\nconst a = `x`;\n```\n']],
      ['ls', []],
    ],
  },
  {
    name: 'a long call over many lines',
    reply: T(`create("big.txt", "${'row, (col)\n'.repeat(500)}")`),
    items: [['create', ['big.txt', 'row, (col)\n'.repeat(500)]]],
  },
];

const code: Case[] = [
  {
    name: 'call in a ``` fence',
    reply: `Example:\n\`\`\`\n${T('delete("x")')}\n\`\`\`\n`,
    items: [],
  },
  { name: 'call in a ~~~ fence with info', reply: `~~~text\n${T('delete("x")')}\n~~~`, items: [] },
  {
    name: 'call in a fence with a language',
    reply: `\`\`\`python\n${T('delete("x")')}\n\`\`\`\n${T('ls()')}`,
    items: [['ls', []]],
  },
  {
    name: 'an unclosed fence runs to the end',
    reply: `\`\`\`\n${T('delete("x")')}\nmore\n${T('ls()')}`,
    items: [],
  },
  {
    name: 'a longer fence needs a long closer',
    reply: `\`\`\`\`\n\`\`\`\n${T('delete("x")')}\n\`\`\`\`\n${T('ls()')}`,
    items: [['ls', []]],
  },
  {
    name: 'an indented fence in a list',
    reply: `- step:\n    \`\`\`\n    ${T('delete("x")')}\n    \`\`\`\n`,
    items: [],
  },
  { name: 'call in inline code', reply: `Use \`${T('delete("x")')}\` to delete.`, items: [] },
  {
    name: 'call in a double-backtick span',
    reply: `Use \`\`${T('create("a", "`")')}\`\` here.`,
    items: [],
  },
  {
    name: 'a stray backtick does not hide a later call',
    reply: `The \` key. ${T('create("a.md", "see `code`")')}`,
    items: [['create', ['a.md', 'see `code`']]],
  },
  {
    name: 'inline code does not cross a blank line',
    reply: `a \` b\n\n${T('ls()')} \` c`,
    items: [['ls', []]],
  },
  {
    name: 'triple backticks with backticks after are inline',
    reply: `\`\`\`ls()\`\`\` lists. ${T('ls()')}`,
    items: [['ls', []]],
  },
  {
    name: 'call after a closed fence',
    reply: `\`\`\`\ncode\n\`\`\`\n${T('ls()')}`,
    items: [['ls', []]],
  },
];

const waits: Case[] = [
  { name: 'trailing [WAIT]', reply: 'What next? [WAIT]', items: [], wait: true },
  {
    name: '[WAIT] with trailing whitespace',
    reply: 'Done.\n[WAIT]\n\n  \t',
    items: [],
    wait: true,
  },
  { name: 'lowercase [wait]', reply: 'Done. [wait]', items: [], wait: true },
  { name: 'bold **[WAIT]**', reply: 'Over to you. **[WAIT]**', items: [], wait: true },
  { name: '[WAIT] then punctuation', reply: 'Over to you. [WAIT].', items: [], wait: true },
  { name: '[WAIT] then four marks', reply: 'Done [WAIT]?!.。', items: [], wait: true },
  { name: '[WAIT] then five marks is text', reply: 'Done [WAIT].....', items: [], wait: false },
  { name: '[WAIT] then a word is text', reply: 'Done [WAIT] ok', items: [], wait: false },
  { name: 'bold [WAIT] in a fence', reply: '```\n**[WAIT]**', items: [], wait: false },
  { name: '[WAIT] in the middle is text', reply: 'I will [WAIT] later.', items: [], wait: false },
  { name: '[WAIT] in an unclosed fence', reply: '```\nexample [WAIT]', items: [], wait: false },
  { name: '[WAIT] in inline code', reply: 'Type `[WAIT]`', items: [], wait: false },
  {
    name: 'calls then [WAIT]',
    reply: `${T('ls()')}\n${T('read("a")')}\n[WAIT]`,
    items: [
      ['ls', []],
      ['read', ['a']],
    ],
    wait: true,
  },
  {
    name: '[WAIT] inside a string argument',
    reply: T('create("a", "[WAIT]")'),
    items: [['create', ['a', '[WAIT]']]],
    wait: false,
  },
];

/** Forms read but noted; named and bare words are placed later, against the tool (resolve.ts). */
const readVariants: Case[] = [
  { name: 'missing [/TOOL] at the very end', reply: '[TOOL] ls(".")  \n', items: [['ls', ['.']]] },
  { name: 'bare word', reply: T('ls(foo)'), items: [['ls', ['foo']]] },
  { name: 'bare word that looks numeric', reply: T('f(12px)'), items: [['f', ['12px']]] },
  { name: 'keyword argument', reply: T('read(path="a.txt")'), items: [['read', []]] },
  { name: 'typographic quotes', reply: T('read(“a.txt”, ‘b’)'), items: [['read', ['a.txt', 'b']]] },
  {
    name: 'typographic quote with an apostrophe inside',
    reply: T('f(‘it’s fine’)'),
    items: [['f', ['it’s fine']]],
  },
  {
    name: 'missing [/TOOL] with [WAIT] after is still an error',
    reply: '[TOOL] ls(".") [WAIT]',
    items: [{ bad: /missing \[\/TOOL\] before \[WAIT\]/ }],
  },
  {
    name: 'named value with no value',
    reply: T('read(path=)'),
    items: [{ bad: /named \(path=…\) but has no value/, name: 'read' }],
  },
  {
    name: 'a name given twice',
    reply: T('read(path="a", path="b")'),
    items: [{ bad: /path is given twice/ }],
  },
  {
    name: 'a JSON object after a value',
    reply: T('read("a", {"limit": 2})'),
    items: [{ bad: /either one object with all the arguments/ }],
  },
  {
    name: 'a broken JSON object',
    reply: T("read({'path': 'a'})"),
    items: [{ bad: /not a JSON object/ }],
  },
];

const malformed: Case[] = [
  {
    name: 'unterminated string at the end',
    reply: '[TOOL] create("a.txt", "half',
    items: [{ bad: /unterminated string in argument 2/, name: 'create' }],
  },
  {
    name: 'missing [/TOOL] before another call',
    reply: `[TOOL] ls(".")\n${T('read("a")')}`,
    items: [{ bad: /missing \[\/TOOL\] before the next \[TOOL\]/, name: 'ls' }, ['read', ['a']]],
  },
  {
    name: 'missing parentheses',
    reply: T('ls'),
    items: [{ bad: /missing parentheses after ls.*ls\(\)/, name: 'ls' }],
  },
  {
    name: 'arguments without parentheses',
    reply: T('read "a.txt"'),
    items: [{ bad: /missing parentheses after read/ }],
  },
  {
    name: 'garbage after )',
    reply: T('ls(".") please'),
    items: [{ bad: /unexpected text after ls\(…\): "please/ }],
  },
  {
    name: 'two calls in one block',
    reply: T('ls() read("a")'),
    items: [{ bad: /one call per block/ }],
  },
  {
    name: 'bad \\u escape',
    reply: T('f("\\u12")'),
    items: [{ bad: /bad escape \\u12 .*4 hex digits/, name: 'f' }],
  },
  {
    name: 'name starting with a digit',
    reply: T('3d()'),
    items: [{ bad: /invalid tool name "3d"/ }],
  },
  { name: 'quoted name', reply: T('"ls"()'), items: [{ bad: /invalid tool name/ }] },
  { name: 'non-ASCII name', reply: T('列表()'), items: [{ bad: /invalid tool name "列表"/ }] },
  { name: 'empty block', reply: '[TOOL][/TOOL]', items: [{ bad: /empty \[TOOL\] block/ }] },
  {
    name: 'missing comma',
    reply: T('f("a" "b")'),
    items: [{ bad: /expected , or \) after argument 1/ }],
  },
  {
    name: 'missing ) before [/TOOL]',
    reply: T('f("a"'),
    items: [{ bad: /missing \) before \[\/TOOL\]/ }],
  },
  {
    name: 'array argument',
    reply: T('f([1, 2])'),
    items: [{ bad: /arrays and objects are not supported/ }],
  },
  {
    name: 'backtick-quoted argument',
    reply: T('f(`a`)'),
    items: [{ bad: /quoted with backticks/ }],
  },
  {
    name: 'full-width parenthesis',
    reply: T('ls（"."）'),
    items: [{ bad: /full-width/, name: 'ls' }],
  },
  { name: 'full-width comma', reply: T('f("a"，"b")'), items: [{ bad: /use the ASCII ,/ }] },
  { name: 'Python-style True', reply: T('f(True)'), items: [{ bad: /lowercase/ }] },
  { name: 'number too large', reply: T('f(1e999)'), items: [{ bad: /too large/ }] },
  {
    name: 'empty argument',
    reply: T('f("a",,"b")'),
    items: [{ bad: /empty argument 2: remove the extra comma/ }],
  },
  {
    name: 'unterminated string does not swallow the next call',
    reply: `[TOOL] read("a.txt) [/TOOL]\n${T('ls()')}`,
    items: [{ bad: /unterminated string/, name: 'read' }, ['ls', []]],
  },
  {
    name: 'a string closed by the next call’s quote',
    reply: `[TOOL] read("a.txt) [/TOOL]\n${T('create("b", "x")')}`,
    items: [{ bad: /unterminated string/, name: 'read' }, ['create', ['b', 'x']]],
  },
  {
    name: 'missing [/TOOL] before [WAIT]',
    reply: '[TOOL] ls(".") [WAIT]',
    items: [{ bad: /missing \[\/TOOL\] before \[WAIT\]/ }],
    wait: true,
  },
  {
    name: '[TOOL] mentioned in prose',
    reply: 'I will use [TOOL] blocks.',
    items: [{ bad: /missing parentheses after blocks/ }],
  },
  {
    name: 'a broken call does not expose a fenced example',
    reply: `[TOOL] ls(\n\`\`\`\n${T('delete("x")')}\n\`\`\`\n${T('read("a")')}`,
    items: [{ bad: /argument 1/, name: 'ls' }, ['read', ['a']]],
  },
];

describe('parseReply: well-formed calls', () => {
  it.each(wellFormed)('$name', ({ reply, items }) => check(reply, items));
});

describe('parseReply: code is text', () => {
  it.each(code)('$name', ({ reply, items }) => check(reply, items));
});

describe('parseReply: [WAIT]', () => {
  it.each(waits)('$name', ({ reply, items, wait }) => {
    check(reply, items);
    expect(parseReply(reply).wait).toBe(wait);
  });
});

describe('parseReply: variants read as calls', () => {
  it.each(readVariants)('$name', ({ reply, items }) => check(reply, items));

  it('keeps named arguments and bare words for the tool to place', () => {
    const [named] = parseReply(T('read(path: "a", limit=2)')).items;
    expect(named).toMatchObject({
      named: [
        { name: 'path', value: 'a' },
        { name: 'limit', value: 2 },
      ],
    });
    expect(named).toMatchObject({ readAs: ['keyword arguments'] });
    const [bare] = parseReply(T('read(notes.md, 3)')).items;
    expect(bare).toMatchObject({ args: ['notes.md', 3], bare: [0] });
    const [json] = parseReply(T('read({"path": "a", "deep": [1, {"b": 2}]})')).items;
    expect(json).toMatchObject({
      named: [
        { name: 'path', value: 'a' },
        { name: 'deep', value: '[1,{"b":2}]' },
      ],
    });
  });
});

describe('parseReply: malformed calls', () => {
  it.each(malformed)('$name', ({ reply, items, wait }) => {
    check(reply, items);
    expect(parseReply(reply).wait).toBe(wait ?? false);
  });

  it('every error shows the expected form', () => {
    for (const { reply } of malformed) {
      for (const item of parseReply(reply).items) {
        if (item.type === 'malformed') expect(item.error).toContain('Expected: [TOOL] ');
      }
    }
  });
});

describe('parseReply: positions and display text', () => {
  it('gives raw, start and end that point into the reply', () => {
    const reply = `Hi ${T('ls(".")')} and [TOOL] ls(foo) [/TOOL] bye`;
    const { items } = parseReply(reply);
    expect(items).toHaveLength(2);
    for (const item of items) expect(reply.slice(item.start, item.end)).toBe(item.raw);
    expect(items[0]?.raw).toBe('[TOOL] ls(".") [/TOOL]');
    expect(items[1]?.raw).toBe('[TOOL] ls(foo) [/TOOL]');
  });

  it('removes call blocks and the trailing [WAIT] from the text', () => {
    const reply = `Let me look.\n${T('ls(".")')}\nFound it: ${T('read("a")')} reading.\n[TOOL] x(\n[WAIT]`;
    const parsed = parseReply(reply);
    expect(parsed.wait).toBe(true);
    expect(parsed.text).toBe('Let me look.\nFound it: reading.');
  });

  it('keeps code, including calls inside it, in the text', () => {
    const reply = `See:\n\`\`\`\n${T('ls()')}\n\`\`\``;
    expect(parseReply(reply).text).toBe(reply);
  });
});

const PIECES = [
  '[TOOL]',
  '[/TOOL]',
  '[WAIT]',
  '[tool]',
  '"',
  "'",
  '\\',
  '\\u',
  '\\u12',
  '(',
  ')',
  ',',
  ' ',
  '\n',
  '`',
  '``',
  '```',
  '~~~',
  'ls',
  'read',
  'true',
  'null',
  '12',
  '-3.5e2',
  'x',
  '中文',
  '😀',
  '\uD800',
  '\uDC00',
  '=',
  '[',
  ']',
  '{',
  '，',
  '（',
];

describe('parseReply: robustness', () => {
  it('never throws on random input and keeps its invariants', () => {
    const next = rng(20240611);
    for (let n = 0; n < 3000; n++) {
      const len = Math.floor(next() * 40);
      let reply = '';
      for (let k = 0; k < len; k++) reply += PIECES[Math.floor(next() * PIECES.length)];
      const parsed = parseReply(reply);
      let prevEnd = 0;
      for (const item of parsed.items) {
        expect(item.start).toBeGreaterThanOrEqual(prevEnd);
        expect(item.end).toBeGreaterThan(item.start);
        expect(reply.slice(item.start, item.end)).toBe(item.raw);
        expect(item.raw.slice(0, 6).toLowerCase()).toBe('[tool]');
        if (item.type === 'call') expect(item.raw.slice(-7).toLowerCase()).toBe('[/tool]');
        else expect(item.error.length).toBeGreaterThan(20);
        prevEnd = item.end;
      }
      expect(typeof parsed.text).toBe('string');
    }
  });

  it('never throws on random code units', () => {
    const next = rng(7);
    for (let n = 0; n < 500; n++) {
      const units = Array.from({ length: 60 }, () => Math.floor(next() * 0x10000));
      expect(() => parseReply(String.fromCharCode(...units))).not.toThrow();
    }
  });

  it('parses a 1 MB reply with thousands of calls', () => {
    const block =
      'Thinking about `code` and 中文 😀.\n' +
      '[TOOL] create("a.txt", "x, y (z) \\"q\\" [/TOOL] ```") [/TOOL]\n' +
      '```\n[TOOL] delete("x") [/TOOL]\n```\n';
    const count = Math.ceil((1 << 20) / block.length);
    const parsed = parseReply(block.repeat(count) + '[WAIT]');
    expect(parsed.items).toHaveLength(count);
    expect(parsed.items.every((it) => it.type === 'call')).toBe(true);
    expect(parsed.wait).toBe(true);
  });

  it('copes with 1 MB of hostile input', () => {
    const mb = (s: string): string => s.repeat(Math.ceil((1 << 20) / s.length));
    expect(parseReply(mb('[TOOL]')).items.length).toBe(Math.ceil((1 << 20) / 6));
    expect(parseReply(mb('[TOOL] f("')).items.every((it) => it.type === 'malformed')).toBe(true);
    expect(parseReply(mb('` [TOOL] f("`") [/TOOL] ')).items.length).toBeGreaterThan(0);
    expect(parseReply(mb('```\n')).items).toHaveLength(0);
    const chained = parseReply(`[TOOL] f(${'a='.repeat(200_000)}1) [/TOOL]`);
    expect(chained.items.map((it) => it.type)).toEqual(['malformed']);
  });

  it('copes with hostile input in the native formats (each near miss answered once)', () => {
    const kb = (s: string): string => s.repeat(Math.ceil((256 << 10) / s.length));
    const n = (s: string): number => Math.ceil((256 << 10) / s.length);
    const open = '<tool_call>{"name": "read", "arguments": {';
    expect(parseReply(kb(open)).items).toHaveLength(n(open));
    const lines = '{"name": "read", "arguments": {"path": "a"}\n';
    const broken = parseReply(kb(lines)).items;
    expect(broken).toHaveLength(n(lines));
    expect(broken.every((it) => it.type === 'malformed' && it.name === 'read')).toBe(true);
    expect(parseReply(kb('[TOOL_CALLS]')).items).toHaveLength(n('[TOOL_CALLS]'));
    expect(parseReply(kb('[TOOL] f(“')).items).toHaveLength(n('[TOOL] f(“'));
    expect(parseReply(kb('{')).items).toHaveLength(0);
    expect(parseReply(kb('<｜tool▁calls▁begin｜>')).items).toHaveLength(1);
  });
});

describe('parseReply: [WAIT] is cut from the shown text', () => {
  it.each(['**[WAIT]**', '[WAIT].', 'Over to you. **[WAIT]**!'])('%s', (reply) => {
    const parsed = parseReply(reply);
    expect(parsed.wait).toBe(true);
    expect(parsed.text).not.toMatch(/WAIT|\*/);
  });
});

describe('parseReply: native call formats', () => {
  it('splits a block of several calls where each call starts', () => {
    const reply =
      'Both: [TOOL_CALLS] [{"name": "read", "arguments": {"path": "a"}}, {"name": "ls", "arguments": {}}] done';
    const { items, text } = parseReply(reply);
    expect(items.map((it) => [it.name, it.raw])).toEqual([
      ['read', '[TOOL_CALLS] [{"name": "read", "arguments": {"path": "a"}}, '],
      ['ls', '{"name": "ls", "arguments": {}}]'],
    ]);
    expect(text).toBe('Both: done');
  });

  it('reads DeepSeek V3.1 calls without the function prefix', () => {
    const reply =
      '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>read<｜tool▁sep｜>{"path":"a"}<｜tool▁call▁end｜>' +
      '<｜tool▁call▁begin｜>ls<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>';
    expect(parseReply(reply).items.map((it) => it.name)).toEqual(['read', 'ls']);
  });

  it('a [WAIT] after a native call still ends the reply', () => {
    const parsed = parseReply('<tool_call>{"name": "ls", "arguments": {}}</tool_call>\n[WAIT]');
    expect(parsed.items.map((it) => it.type)).toEqual(['call']);
    expect(parsed.wait).toBe(true);
  });

  it('a <tool_call> whose closing tag is missing ends before the next one', () => {
    const reply =
      '<tool_call>{"name": "ls", "arguments": {}}\n<tool_call>{"name": "read", "arguments": {"path": "a"}}</tool_call>';
    expect(parseReply(reply).items.map((it) => [it.type, it.name])).toEqual([
      ['call', 'ls'],
      ['call', 'read'],
    ]);
  });
});
