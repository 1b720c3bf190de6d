import { describe, expect, test } from 'vitest';
import {
  BINDINGS,
  isText,
  resolveKey,
  type KeyContext,
  type KeyPress,
} from '../../components/keys/bindings.js';
import { helpRows, hintsFor } from '../../components/keys/hints.js';
import { messages } from '../../src/i18n/messages.js';

const base: KeyContext = {
  machine: 'AWAITING_INPUT',
  focus: 'input',
  overlay: 'none',
  input: '',
  busy: false,
  exitArmed: false,
  approvalArmed: false,
  queueLine: 'closed',
};
const ctx = (over: Partial<KeyContext> = {}): KeyContext => ({ ...base, ...over });

const K = {
  enter: { return: true },
  altEnter: { return: true, meta: true },
  esc: { escape: true, meta: true },
  tab: { tab: true },
  shiftTab: { tab: true, shift: true },
  up: { upArrow: true },
  down: { downArrow: true },
  left: { leftArrow: true },
  right: { rightArrow: true },
  pgUp: { pageUp: true },
  pgDn: { pageDown: true },
  home: { home: true },
  end: { end: true },
  backspace: { backspace: true },
  del: { delete: true },
  ctrl: { ctrl: true },
  f1: { f1: true },
  none: {},
} satisfies Record<string, KeyPress>;

/** The action for (input, key) in a context. */
const act = (input: string, key: KeyPress, c: Partial<KeyContext> = {}): string | undefined =>
  resolveKey(input, key, ctx(c))?.action;

describe('always available', () => {
  test('Ctrl+C interrupts while busy, quits when idle, and a second press always quits', () => {
    expect(act('c', K.ctrl, { machine: 'THINKING', busy: true })).toBe('cancel');
    expect(act('c', K.ctrl, { machine: 'THINKING', busy: true, exitArmed: true })).toBe('quit');
    expect(act('c', K.ctrl, { busy: false })).toBe('quit');
    expect(act('c', K.ctrl, { overlay: 'help', busy: true })).toBe('cancel');
  });

  test('Ctrl+C when idle clears a typed message first; the next press quits', () => {
    expect(act('c', K.ctrl, { input: 'half a thought' })).toBe('clearInput');
    expect(act('c', K.ctrl, { input: 'half a thought', exitArmed: true })).toBe('quit');
    expect(act('c', K.ctrl, { input: '' })).toBe('quit');
    expect(act('c', K.ctrl, { input: 'hi', machine: 'THINKING', busy: true })).toBe('cancel');
  });

  test('Ctrl+L redraws and Ctrl+P pauses in every state, even under an overlay', () => {
    for (const machine of ['THINKING', 'AWAITING_INPUT', 'PAUSED', 'AWAITING_APPROVAL'] as const) {
      for (const overlay of ['none', 'help', 'detail'] as const) {
        expect(act('l', K.ctrl, { machine, overlay })).toBe('redraw');
        expect(act('p', K.ctrl, { machine, overlay })).toBe('togglePause');
      }
    }
  });

  test('F1 and ? open the help; the help closes with Esc, q, ?, F1 or Enter', () => {
    expect(act('', K.f1)).toBe('help');
    expect(act('', K.f1, { machine: 'THINKING' })).toBe('help');
    expect(act('?', K.none)).toBe('help');
    expect(act('?', K.none, { machine: 'PAUSED' })).toBe('help');
    // While it thinks, ? is a printable key like any other: it interrupts and is typed.
    expect(act('?', K.none, { machine: 'THINKING' })).toBe('interruptAndType');
    expect(act('', K.f1, { machine: 'AWAITING_APPROVAL' })).toBe('help');
    expect(act('?', K.none, { input: 'why' })).toBe('type');
    for (const [i, k] of [
      ['', K.esc],
      ['q', K.none],
      ['?', K.none],
      ['', K.f1],
      ['\r', K.enter],
    ] as const) {
      expect(act(i, k, { overlay: 'help' })).toBe('closeOverlay');
    }
    expect(act('', K.up, { overlay: 'help' })).toBe('scrollUp');
    expect(act('x', K.none, { overlay: 'help' })).toBe('ignore');
  });
});

describe('approval', () => {
  const A = { machine: 'AWAITING_APPROVAL', approvalArmed: true } as const;
  test('once armed, y / n / a / Esc answer; other letters are typed; Enter never sends', () => {
    expect(act('y', K.none, A)).toBe('approveYes');
    expect(act('Y', { shift: true }, A)).toBe('approveYes');
    expect(act('n', K.none, A)).toBe('approveNo');
    expect(act('', K.esc, A)).toBe('approveNo');
    expect(act('a', K.none, A)).toBe('approveAlways');
    expect(act('x', K.none, A)).toBe('type');
    expect(act('?', K.none, A)).toBe('type');
    expect(act('\r', K.enter, A)).toBe('ignore');
    expect(act('', K.tab, A)).toBe('focusNext');
  });

  test('not yet armed (just shown, or the user is typing): y / n / a are typed, Esc waits', () => {
    const early = { ...A, approvalArmed: false };
    expect(act('y', K.none, early)).toBe('type');
    expect(act('n', K.none, early)).toBe('type');
    expect(act('a', K.none, early)).toBe('type');
    expect(act('', K.esc, early)).toBe('ignore');
    expect(act('\r', K.enter, early)).toBe('ignore');
    expect(act('', K.backspace, early)).toBe('deleteBack');
  });

  test('a pasted "y" is text, never an answer', () => {
    expect(act('y', { paste: true }, A)).toBe('type');
  });
});

describe('while THINKING', () => {
  const T = { machine: 'THINKING', busy: true } as const;
  test('Esc and Enter interrupt; a typed key interrupts and becomes the message', () => {
    expect(act('', K.esc, T)).toBe('interrupt');
    expect(act('\r', K.enter, T)).toBe('interrupt');
    expect(act('\r', K.enter, { ...T, focus: 'reply' })).toBe('interrupt');
    const typed = resolveKey('h', K.none, ctx(T));
    expect(typed).toMatchObject({ action: 'interruptAndType', text: 'h' });
    expect(resolveKey('hello\nworld', K.none, ctx(T))).toMatchObject({
      action: 'interruptAndType',
      text: 'hello\nworld',
    });
    expect(resolveKey('中', K.none, ctx({ ...T, focus: 'reasoning' }))?.action).toBe(
      'interruptAndType',
    );
  });

  test('Enter with text already typed sends it; exit quits', () => {
    expect(act('\r', K.enter, { ...T, input: 'hi' })).toBe('submit');
    expect(act('\r', K.enter, { ...T, input: 'exit' })).toBe('quit');
  });

  test('the tool log stays usable while it thinks', () => {
    expect(act('', K.up, { ...T, focus: 'tools' })).toBe('selectPrev');
    expect(act('\r', K.enter, { ...T, focus: 'tools' })).toBe('expand');
    expect(act('', K.esc, { ...T, focus: 'tools' })).toBe('interrupt');
  });
});

describe('the input box', () => {
  for (const machine of ['AWAITING_INPUT', 'PAUSED'] as const) {
    test(`editing keys in ${machine}`, () => {
      const c = { machine };
      expect(act('\r', K.enter, { ...c, input: 'hi' })).toBe('submit');
      expect(act('\r', K.enter, c)).toBe('submit');
      expect(act('\r', K.enter, { ...c, input: 'exit' })).toBe('quit');
      expect(act('\r', K.enter, { ...c, input: ' /EXIT ' })).toBe('quit');
      expect(act('\r', K.enter, { ...c, input: 'exit now' })).toBe('submit');
      expect(act('', K.up, c)).toBe('historyPrev');
      expect(act('', K.down, c)).toBe('historyNext');
      expect(act('', K.left, c)).toBe('cursorLeft');
      expect(act('', K.right, c)).toBe('cursorRight');
      expect(act('a', K.ctrl, c)).toBe('lineStart');
      expect(act('', K.home, c)).toBe('lineStart');
      expect(act('e', K.ctrl, c)).toBe('lineEnd');
      expect(act('', K.end, c)).toBe('lineEnd');
      expect(act('u', K.ctrl, c)).toBe('killToStart');
      expect(act('w', K.ctrl, c)).toBe('killWordBack');
      expect(act('k', K.ctrl, c)).toBe('killToEnd');
      expect(act('', K.backspace, c)).toBe('deleteBack');
      expect(act('', K.del, c)).toBe('deleteBack');
      expect(act('x', K.none, c)).toBe('type');
      expect(act(' ', K.none, c)).toBe('type');
      expect(act('', K.altEnter, c)).toBe('newline');
      expect(act('\n', K.none, c)).toBe('newline');
      expect(act('', K.pgUp, c)).toBe('pageUp');
      expect(act('', K.pgDn, c)).toBe('pageDown');
    });
  }

  test('a pasted chunk with line breaks is typed, never sent', () => {
    expect(resolveKey('line one\r\nline two\r', K.none, ctx())).toMatchObject({
      action: 'type',
      text: 'line one\r\nline two\r',
    });
  });

  test('Tab completes a /command prefix, otherwise moves the focus', () => {
    expect(act('', K.tab, { input: '/pa' })).toBe('complete');
    expect(act('', K.tab, { input: '/' })).toBe('complete');
    expect(act('', K.tab, { input: '/pause now' })).toBe('focusNext');
    expect(act('', K.tab, { input: 'hello' })).toBe('focusNext');
    expect(act('', K.tab, { input: '/pa', focus: 'reply' })).toBe('focusNext');
    expect(act('', K.shiftTab)).toBe('focusPrev');
  });

  test('Esc stops an answer streaming while paused, and does nothing otherwise', () => {
    expect(act('', K.esc, { machine: 'PAUSED', busy: true })).toBe('interrupt');
    expect(act('', K.esc, { machine: 'PAUSED' })).toBeUndefined();
    expect(act('', K.esc)).toBeUndefined();
  });
});

describe('panes', () => {
  for (const focus of ['reply', 'reasoning'] as const) {
    test(`${focus} scrolls`, () => {
      const c = { focus };
      expect(act('', K.up, c)).toBe('scrollUp');
      expect(act('', K.down, c)).toBe('scrollDown');
      expect(act('', K.pgUp, c)).toBe('pageUp');
      expect(act('', K.pgDn, c)).toBe('pageDown');
      expect(act('', K.home, c)).toBe('scrollTop');
      expect(act('', K.end, c)).toBe('scrollBottom');
      expect(act('\r', K.enter, c)).toBe('focusInput');
      expect(act('', K.esc, c)).toBe('focusInput');
      expect(act('x', K.none, c)).toBe('type');
    });
  }

  test('the tool log selects and expands; the details close with Esc, q or Enter', () => {
    const c = { focus: 'tools' } as const;
    expect(act('', K.up, c)).toBe('selectPrev');
    expect(act('', K.down, c)).toBe('selectNext');
    expect(act('\r', K.enter, c)).toBe('expand');
    expect(act('', K.home, c)).toBe('scrollTop');
    for (const [i, k] of [
      ['', K.esc],
      ['q', K.none],
      ['\r', K.enter],
    ] as const) {
      expect(act(i, k, { ...c, overlay: 'detail' })).toBe('closeOverlay');
    }
    expect(act('', K.down, { ...c, overlay: 'detail' })).toBe('scrollDown');
    expect(act('', K.f1, { ...c, overlay: 'detail' })).toBe('help');
  });
});

describe('isText', () => {
  test('printable keys and pastes are text; control keys are not', () => {
    expect(isText('a', {})).toBe(true);
    expect(isText('中', {})).toBe(true);
    expect(isText('a\nb', {})).toBe(true);
    expect(isText('', {})).toBe(false);
    expect(isText('a', { ctrl: true })).toBe(false);
    expect(isText('a', { meta: true })).toBe(false);
    expect(isText('\r', { return: true })).toBe(false);
    expect(isText('\x7f', {})).toBe(false);
    expect(isText('\x1b[A', {})).toBe(false);
  });
});

describe('hints and help come from the same table', () => {
  test('hints follow the state', () => {
    const labels = (c: Partial<KeyContext>): string[] => hintsFor(ctx(c)).map((h) => h.label);
    expect(labels({ machine: 'THINKING', busy: true })[0]).toBe('hint.interrupt');
    expect(labels({ machine: 'AWAITING_APPROVAL', approvalArmed: true }).slice(0, 3)).toEqual([
      'hint.approve',
      'hint.deny',
      'hint.always',
    ]);
    expect(labels({})).toContain('hint.send');
    expect(labels({ input: '/pa' })).toContain('hint.complete');
    expect(labels({ overlay: 'help' })[0]).toBe('hint.close');
  });

  test('every described binding is in the help once, with text in both languages', () => {
    const rows = helpRows();
    const described = new Set(BINDINGS.filter((b) => b.description).map((b) => b.description));
    expect(rows.map((r) => r.description).sort()).toEqual([...described].sort());
    for (const r of rows) {
      expect(messages.en[r.description]).toBeTruthy();
      expect(messages.zh[r.description]).toBeTruthy();
    }
  });
});

describe('every row of the table', () => {
  /** A key press for a row's first key, as Ink would report it. */
  const SAMPLE: Record<string, [string, KeyPress]> = {
    'Ctrl+C': ['c', K.ctrl],
    'Ctrl+D': ['d', K.ctrl],
    'Ctrl+L': ['l', K.ctrl],
    'Ctrl+P': ['p', K.ctrl],
    'Ctrl+G': ['g', K.ctrl],
    'Ctrl+S': ['s', K.ctrl],
    'Wheel ↑': ['', { wheel: 'up', row: 5 }],
    'Wheel ↓': ['', { wheel: 'down', row: 5 }],
    'Ctrl+A': ['a', K.ctrl],
    'Ctrl+E': ['e', K.ctrl],
    'Ctrl+U': ['u', K.ctrl],
    'Ctrl+W': ['w', K.ctrl],
    'Ctrl+K': ['k', K.ctrl],
    'Ctrl+X': ['x', K.ctrl],
    'Ctrl+O': ['o', K.ctrl],
    '>': ['>', K.none],
    F1: ['', K.f1],
    Esc: ['', K.esc],
    Enter: ['\r', K.enter],
    'Alt+Enter': ['', K.altEnter],
    Tab: ['', K.tab],
    'Shift+Tab': ['', K.shiftTab],
    '↑': ['', K.up],
    '↓': ['', K.down],
    '←': ['', K.left],
    '→': ['', K.right],
    PgUp: ['', K.pgUp],
    PgDn: ['', K.pgDn],
    Home: ['', K.home],
    End: ['', K.end],
    Backspace: ['', K.backspace],
    'a–z…': ['x', K.none],
    y: ['y', K.none],
    n: ['n', K.none],
    a: ['a', K.none],
    '?': ['?', K.none],
    any: ['z', K.none],
  };
  const INPUTS = {
    empty: '',
    filled: 'hi',
    words: 'hi',
    command: '/pa',
    exitWord: 'exit',
    detachWord: '/detach',
  } as const;

  test('is reachable: in the context it declares, its first key resolves to it', () => {
    for (const b of BINDINGS) {
      if (b.keys[0] === '*') continue; // internal rows that swallow keys
      const sample = SAMPLE[b.keys[0]!];
      if (!sample) throw new Error(`no sample key for ${b.keys[0]}: add one to SAMPLE`);
      const w = b.when;
      const c = ctx({
        machine: w.states?.[0] ?? 'AWAITING_INPUT',
        focus: w.focus?.[0] ?? 'input',
        overlay: w.overlay === undefined || w.overlay === 'any' ? 'none' : w.overlay[0]!,
        input: w.input ? INPUTS[w.input] : '',
        busy: w.busy ?? false,
        exitArmed: w.exitArmed ?? false,
        approvalArmed: w.approvalArmed ?? false,
        queueLine: w.queueLine?.[0] ?? 'closed',
        pasted: w.pasted ?? false,
        mention: w.mention ?? false,
      });
      const got = resolveKey(sample[0], sample[1], c);
      expect(
        got?.binding,
        `${b.keys.join('/')} → ${b.action} in ${JSON.stringify(c)} gave ${got?.action}`,
      ).toBe(b);
    }
  });
});
