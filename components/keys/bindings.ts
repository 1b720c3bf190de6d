/**
 * The one keybinding table. Every key the screen reacts to is a row here: which keys, when
 * (machine states, focus, overlay, input contents), the action, and a description for the
 * help overlay. `resolveKey` is pure: the first row that matches wins, so the order of the
 * rows is the precedence. The screen only carries out the action it returns.
 */
import * as m from './matchers.js';
import { applies, type Binding, type KeyContext, type KeyPress, type Resolved } from './types.js';
import * as w from './when.js';
import { MOUSE_BINDINGS } from './mouseBindings.js';
import { QUEUE_BINDINGS } from './queueBindings.js';

export * from './types.js';
export { isText } from './matchers.js';

const { LISTENING, NOT_APPROVAL, ALWAYS, OVERLAYS, APPROVAL, ARMED, THINKING } = w;
const { INPUT, TOOLS, PANE, ENDS, PICKER, MENTION } = w;

export const BINDINGS: readonly Binding[] = [
  // The mouse wheel and its switch (mouseBindings.ts); a wheel turn is never a key press.
  ...MOUSE_BINDINGS,
  // Always available, whatever covers the screen.
  {
    keys: ['Ctrl+C'],
    match: m.ctrl('c'),
    when: { ...ALWAYS, busy: true, exitArmed: false },
    action: 'cancel',
    description: 'keys.cancel',
  },
  {
    keys: ['Ctrl+C'],
    match: m.ctrl('c'),
    when: { ...ALWAYS, busy: false, exitArmed: false, input: 'filled' },
    action: 'clearInput',
    description: 'keys.clearInput',
  },
  {
    keys: ['Ctrl+C'],
    match: m.ctrl('c'),
    when: ALWAYS,
    action: 'quit',
    description: 'keys.quitCtrlC',
    hint: { label: 'hint.quit', order: 90 },
  },
  {
    keys: ['Ctrl+D'],
    match: m.ctrl('d'),
    when: ALWAYS,
    action: 'detach',
    description: 'keys.detach',
    hint: { label: 'hint.detach', order: 95 },
  },
  {
    keys: ['Ctrl+L'],
    match: m.ctrl('l'),
    when: ALWAYS,
    action: 'redraw',
    description: 'keys.redraw',
  },
  {
    keys: ['Ctrl+P'],
    match: m.ctrl('p'),
    when: ALWAYS,
    action: 'togglePause',
    description: 'keys.togglePause',
    hint: { label: 'hint.pause', order: 60 },
  },
  {
    keys: ['F1'],
    match: m.f1,
    when: { overlay: ['none', 'detail'] },
    action: 'help',
    description: 'keys.help',
  },

  // The digest shown when the user comes back: Esc closes it. Typing goes on into the input
  // under it, and any other key closes it and does its own job (useScreenKeys.ts).
  {
    keys: ['Esc'],
    match: m.esc,
    when: { overlay: ['away'] },
    action: 'closeOverlay',
    description: 'keys.closeDigest',
  },
  {
    keys: ['Ctrl+G'],
    match: m.ctrl('g'),
    when: { overlay: ['none', 'ledger'] },
    action: 'ledger',
    description: 'keys.ledger',
    hint: { label: 'hint.ledger', order: 70 },
  },
  {
    keys: ['Esc', 'q', 'Enter'],
    match: m.either(m.esc, m.char('q'), m.enter),
    when: { overlay: ['ledger'] },
    action: 'closeOverlay',
    description: 'keys.closeLedger',
    hint: { label: 'hint.close', order: 10 },
  },
  { keys: ['*'], match: m.anyKey, when: { overlay: ['ledger'] }, action: 'ignore' },

  // The session picker (/resume): it takes the keys while open (Ctrl+C and the like above).
  {
    keys: ['↑', 'k'],
    match: m.either(m.up, m.char('k')),
    when: PICKER,
    action: 'pickerUp',
    description: 'keys.pickerMove',
    hint: { label: 'hint.select', order: 20, keys: '↑↓/jk' },
  },
  {
    keys: ['↓', 'j'],
    match: m.either(m.down, m.char('j')),
    when: PICKER,
    action: 'pickerDown',
    description: 'keys.pickerMove',
  },
  {
    keys: ['Enter'],
    match: m.enter,
    when: PICKER,
    action: 'pickerOpen',
    description: 'keys.pickerOpen',
    hint: { label: 'hint.openSession', order: 10 },
  },
  {
    keys: ['Esc', 'q'],
    match: m.either(m.esc, m.char('q')),
    when: PICKER,
    action: 'closeOverlay',
    description: 'keys.pickerClose',
    hint: { label: 'hint.close', order: 30 },
  },
  { keys: ['*'], match: m.anyKey, when: PICKER, action: 'ignore' },

  // Overlays: the help and a tool call's details take the keys while open.
  {
    keys: ['Esc', 'q', '?', 'F1', 'Enter'],
    match: m.either(m.esc, m.char('q'), m.char('?'), m.f1, m.enter),
    when: { overlay: ['help'] },
    action: 'closeOverlay',
    description: 'keys.closeHelp',
    hint: { label: 'hint.close', order: 10 },
  },
  {
    keys: ['Esc', 'q', 'Enter'],
    match: m.either(m.esc, m.char('q'), m.enter),
    when: { overlay: ['detail'] },
    action: 'closeOverlay',
    description: 'keys.closeDetail',
    hint: { label: 'hint.collapse', order: 10 },
  },
  {
    keys: ['↑'],
    match: m.up,
    when: OVERLAYS,
    action: 'scrollUp',
    description: 'keys.scrollOverlay',
    hint: { label: 'hint.scroll', order: 20, keys: '↑↓' },
  },
  {
    keys: ['↓'],
    match: m.down,
    when: OVERLAYS,
    action: 'scrollDown',
    description: 'keys.scrollOverlay',
  },
  {
    keys: ['PgUp'],
    match: m.pgUp,
    when: OVERLAYS,
    action: 'pageUp',
    description: 'keys.scrollOverlay',
  },
  {
    keys: ['PgDn'],
    match: m.pgDn,
    when: OVERLAYS,
    action: 'pageDown',
    description: 'keys.scrollOverlay',
  },
  {
    keys: ['Home'],
    match: m.home,
    when: OVERLAYS,
    action: 'scrollTop',
    description: 'keys.scrollOverlay',
  },
  {
    keys: ['End'],
    match: m.end,
    when: OVERLAYS,
    action: 'scrollBottom',
    description: 'keys.scrollOverlay',
  },
  { keys: ['*'], match: m.anyKey, when: OVERLAYS, action: 'ignore' },

  // A call waits: y / n / a / Esc answer once armed (APPROVAL_ARM_MS); before, letters are typed.
  {
    keys: ['y'],
    match: m.char('y'),
    when: ARMED,
    action: 'approveYes',
    description: 'keys.approveYes',
    hint: { label: 'hint.approve', order: 1 },
  },
  {
    keys: ['n', 'Esc'],
    match: m.either(m.char('n'), m.esc),
    when: ARMED,
    action: 'approveNo',
    description: 'keys.approveNo',
    hint: { label: 'hint.deny', order: 2 },
  },
  {
    keys: ['a'],
    match: m.char('a'),
    when: ARMED,
    action: 'approveAlways',
    description: 'keys.approveAlways',
    hint: { label: 'hint.always', order: 3 },
  },
  // The `@` path list under the input: before the queue line and the THINKING rows, so Enter
  // and Tab put the chosen path while it is open (and only then).
  {
    keys: ['Tab', 'Enter'],
    match: m.either(m.tab, m.enter),
    when: MENTION,
    action: 'mentionAccept',
    description: 'keys.mentionAccept',
    hint: { label: 'hint.mentionAccept', order: 1, keys: 'Tab/Enter' },
  },
  {
    keys: ['↑'],
    match: m.up,
    when: MENTION,
    action: 'mentionPrev',
    description: 'keys.mentionMove',
    hint: { label: 'hint.select', order: 2, keys: '↑↓' },
  },
  {
    keys: ['↓'],
    match: m.down,
    when: MENTION,
    action: 'mentionNext',
    description: 'keys.mentionMove',
  },
  {
    keys: ['Esc'],
    match: m.esc,
    when: MENTION,
    action: 'mentionClose',
    description: 'keys.mentionClose',
    hint: { label: 'hint.close', order: 3 },
  },
  // Talk without interrupting (the queue line): before the approval and THINKING rows, so a
  // key typed there never stops the agent and Enter queues even while a call waits.
  ...QUEUE_BINDINGS,

  // Enter never sends while a call waits (sending would deny it), nor does an early Esc.
  { keys: ['*'], match: m.either(m.esc, m.enter), when: APPROVAL, action: 'ignore' },
  // The card scrolls: what it asks about can be longer than the card (armed or not).
  {
    keys: ['PgDn'],
    match: m.pgDn,
    when: APPROVAL,
    action: 'cardPageDown',
    description: 'keys.cardPage',
    hint: { label: 'hint.readCard', order: 4, keys: 'PgDn/PgUp ↑↓' },
  },
  {
    keys: ['PgUp'],
    match: m.pgUp,
    when: APPROVAL,
    action: 'cardPageUp',
    description: 'keys.cardPage',
  },
  { keys: ['↓'], match: m.down, when: APPROVAL, action: 'cardDown', description: 'keys.cardLine' },
  { keys: ['↑'], match: m.up, when: APPROVAL, action: 'cardUp', description: 'keys.cardLine' },
  {
    keys: ['Home'],
    match: m.home,
    when: { ...APPROVAL, input: 'empty' },
    action: 'cardTop',
    description: 'keys.cardEnds',
  },
  {
    keys: ['End'],
    match: m.end,
    when: { ...APPROVAL, input: 'empty' },
    action: 'cardBottom',
    description: 'keys.cardEnds',
  },

  // Help and focus.
  {
    keys: ['?'],
    match: m.char('?'),
    when: { input: 'empty', states: LISTENING },
    action: 'help',
    description: 'keys.helpQuestion',
    hint: { label: 'hint.help', order: 80 },
  },
  {
    keys: ['Tab'],
    match: m.tab,
    when: { ...INPUT, input: 'command' },
    action: 'complete',
    description: 'keys.complete',
    hint: { label: 'hint.complete', order: 5 },
  },
  {
    keys: ['Tab'],
    match: m.tab,
    when: {},
    action: 'focusNext',
    description: 'keys.focusNext',
    hint: { label: 'hint.focus', order: 50 },
  },
  {
    keys: ['Shift+Tab'],
    match: m.shiftTab,
    when: {},
    action: 'focusPrev',
    description: 'keys.focusPrev',
  },

  // The tool log: pick an entry, open it (before the THINKING rows: readable while it works).
  {
    keys: ['↑'],
    match: m.up,
    when: TOOLS,
    action: 'selectPrev',
    description: 'keys.selectTool',
    hint: { label: 'hint.select', order: 20, keys: '↑↓' },
  },
  { keys: ['↓'], match: m.down, when: TOOLS, action: 'selectNext', description: 'keys.selectTool' },
  {
    keys: ['Enter'],
    match: m.enter,
    when: TOOLS,
    action: 'expand',
    description: 'keys.expandTool',
    hint: { label: 'hint.expand', order: 21 },
  },

  // Typing exit or /exit quits, in any state but approval.
  {
    keys: ['Enter'],
    match: m.enter,
    when: { ...INPUT, input: 'exitWord', states: NOT_APPROVAL },
    action: 'quit',
    description: 'keys.quitWord',
  },
  // /detach leaves the screen, the agent goes on in the background (the host's business).
  {
    keys: ['Enter'],
    match: m.enter,
    when: { ...INPUT, input: 'detachWord', states: NOT_APPROVAL },
    action: 'detach',
    description: 'keys.detachWord',
  },

  // While it thinks: Enter, Esc or any typed key stops it and gives you the floor.
  {
    keys: ['Esc'],
    match: m.esc,
    when: THINKING,
    action: 'interrupt',
    description: 'keys.interrupt',
    hint: { label: 'hint.interrupt', order: 1 },
  },
  {
    keys: ['Enter'],
    match: m.enter,
    when: { ...THINKING, ...INPUT, input: 'filled' },
    action: 'submit',
    description: 'keys.submitThinking',
  },
  {
    keys: ['Enter'],
    match: m.enter,
    when: THINKING,
    action: 'interrupt',
    description: 'keys.interrupt',
  },
  {
    keys: ['a–z…'],
    match: m.isText,
    when: THINKING,
    action: 'interruptAndType',
    description: 'keys.interruptAndType',
  },
  // An answer is streaming while paused: Esc stops it too.
  {
    keys: ['Esc'],
    match: m.esc,
    when: { states: ['PAUSED'], busy: true },
    action: 'interrupt',
    description: 'keys.stopAnswer',
  },
  {
    keys: ['Esc'],
    match: m.esc,
    when: { focus: ['reply', 'reasoning', 'tools'] },
    action: 'focusInput',
    description: 'keys.focusInput',
  },

  // The input box.
  {
    keys: ['Enter'],
    match: m.enter,
    when: { ...INPUT, states: LISTENING },
    action: 'submit',
    description: 'keys.submit',
    hint: { label: 'hint.send', order: 1 },
  },
  {
    keys: ['Alt+Enter', 'Ctrl+J'],
    match: m.altEnter,
    when: { ...INPUT, states: NOT_APPROVAL },
    action: 'newline',
    description: 'keys.newline',
  },
  {
    keys: ['↑'],
    match: m.up,
    when: { ...INPUT, states: NOT_APPROVAL },
    action: 'historyPrev',
    description: 'keys.history',
    hint: { label: 'hint.history', order: 30, keys: '↑↓' },
  },
  {
    keys: ['↓'],
    match: m.down,
    when: { ...INPUT, states: NOT_APPROVAL },
    action: 'historyNext',
    description: 'keys.history',
  },
  { keys: ['←'], match: m.left, when: INPUT, action: 'cursorLeft', description: 'keys.cursor' },
  { keys: ['→'], match: m.right, when: INPUT, action: 'cursorRight', description: 'keys.cursor' },
  {
    keys: ['Ctrl+A', 'Home'],
    match: m.either(m.ctrl('a'), m.home),
    when: INPUT,
    action: 'lineStart',
    description: 'keys.lineStart',
  },
  {
    keys: ['Ctrl+E', 'End'],
    match: m.either(m.ctrl('e'), m.end),
    when: INPUT,
    action: 'lineEnd',
    description: 'keys.lineEnd',
  },
  {
    keys: ['Ctrl+U'],
    match: m.ctrl('u'),
    when: INPUT,
    action: 'killToStart',
    description: 'keys.killToStart',
  },
  {
    keys: ['Ctrl+W'],
    match: m.ctrl('w'),
    when: INPUT,
    action: 'killWordBack',
    description: 'keys.killWordBack',
  },
  {
    keys: ['Ctrl+K'],
    match: m.ctrl('k'),
    when: INPUT,
    action: 'killToEnd',
    description: 'keys.killToEnd',
  },
  {
    keys: ['Backspace'],
    match: m.backspace,
    when: INPUT,
    action: 'deleteBack',
    description: 'keys.deleteBack',
  },
  {
    keys: ['Ctrl+O'],
    match: m.ctrl('o'),
    when: { ...INPUT, pasted: true },
    action: 'expandPaste',
    description: 'keys.expandPaste',
    hint: { label: 'hint.expandPaste', order: 4 },
  },

  // Scrolling: the focused pane (from the input box, PgUp/PgDn scroll the conversation).
  {
    keys: ['↑'],
    match: m.up,
    when: PANE,
    action: 'scrollUp',
    description: 'keys.scrollLine',
    hint: { label: 'hint.scroll', order: 20, keys: '↑↓' },
  },
  { keys: ['↓'], match: m.down, when: PANE, action: 'scrollDown', description: 'keys.scrollLine' },
  { keys: ['PgUp'], match: m.pgUp, when: {}, action: 'pageUp', description: 'keys.scrollPage' },
  { keys: ['PgDn'], match: m.pgDn, when: {}, action: 'pageDown', description: 'keys.scrollPage' },
  {
    keys: ['Home'],
    match: m.home,
    when: ENDS,
    action: 'scrollTop',
    description: 'keys.scrollEnds',
  },
  {
    keys: ['End'],
    match: m.end,
    when: ENDS,
    action: 'scrollBottom',
    description: 'keys.scrollEnds',
  },
  {
    keys: ['Enter'],
    match: m.enter,
    when: { ...PANE, states: LISTENING },
    action: 'focusInput',
    description: 'keys.focusInput',
  },

  // Anything typed goes to the input box (and moves the focus there).
  {
    keys: ['a–z…'],
    match: m.isText,
    when: { states: [...LISTENING, 'AWAITING_APPROVAL'] },
    action: 'type',
    description: 'keys.type',
  },
];

/** The action for a key in this context, or undefined when the key does nothing here. */
export function resolveKey(input: string, key: KeyPress, ctx: KeyContext): Resolved | undefined {
  for (const binding of BINDINGS) {
    if (!binding.match(input, key) || !applies(binding.when, ctx)) continue;
    const typed = binding.action === 'type' || binding.action === 'interruptAndType';
    return {
      action: binding.action,
      binding,
      ...(typed ? { text: input } : {}),
      ...(typed && key.paste === true ? { paste: true } : {}),
      ...(key.row !== undefined ? { row: key.row } : {}),
    };
  }
  return undefined;
}
