/** The queue line's rows of the key table (talk without interrupting; see bindings.ts). */
import * as m from './matchers.js';
import type { Binding } from './types.js';
import { QUEUE_OPEN } from './when.js';

/**
 * `>` on an empty line opens the queue line while the agent works. Why `>`: it is a printable
 * key, so every terminal, multiplexer and keyboard layout delivers it (Ctrl+Q is XON in some
 * setups and quits VS Code on Linux; Tab already cycles the focus); it reads as "pass this on";
 * and it is the one exception to "any key interrupts", only on an empty line. Resting, waiting
 * or paused the line sends as usual (a message is answered at once then anyway).
 */
export const QUEUE_BINDINGS: readonly Binding[] = [
  {
    keys: ['>'],
    match: m.char('>'),
    when: { states: ['THINKING', 'AWAITING_APPROVAL'], input: 'empty', queueLine: ['closed'] },
    action: 'openQueue',
    description: 'keys.openQueue',
    hint: { label: 'hint.openQueue', order: 6 },
  },
  {
    keys: ['>'],
    match: m.char('>'),
    when: { states: ['PAUSED'], busy: true, input: 'empty', queueLine: ['closed'] },
    action: 'openQueue',
    description: 'keys.openQueue',
  },
  /*
   * Tab steers: the message is read at the turn's next tool call, as an amendment to the task
   * (the calls not yet started are deferred). Why Tab: every terminal and tmux deliver it as
   * its own key (Ctrl+Enter and Shift+Enter reach most as a plain Enter, Alt+Enter is the new
   * line), and on the queue line it has nothing else to do but complete a /command, which is
   * never a steer, so that Tab still completes.
   */
  {
    keys: ['Tab'],
    match: m.tab,
    when: { ...QUEUE_OPEN, input: 'words' },
    action: 'steerMessage',
    description: 'keys.steerMessage',
    hint: { label: 'hint.steerMessage', order: 1 },
  },
  {
    keys: ['Enter'],
    match: m.enter,
    when: { ...QUEUE_OPEN, input: 'filled' },
    action: 'queueMessage',
    description: 'keys.queueMessage',
    hint: { label: 'hint.queueMessage', order: 1 },
  },
  {
    keys: ['Esc', 'Enter'],
    match: m.either(m.esc, m.enter),
    when: QUEUE_OPEN,
    action: 'closeQueue',
    description: 'keys.closeQueue',
    hint: { label: 'hint.closeQueue', order: 2, keys: 'Esc' },
  },
  {
    keys: ['↑'],
    match: m.up,
    when: QUEUE_OPEN,
    action: 'queuePrev',
    description: 'keys.pickQueued',
    hint: { label: 'hint.pickQueued', order: 3, keys: '↑↓' },
  },
  {
    keys: ['↓'],
    match: m.down,
    when: QUEUE_OPEN,
    action: 'queueNext',
    description: 'keys.pickQueued',
  },
  {
    keys: ['Ctrl+X'],
    match: m.ctrl('x'),
    when: { queueLine: ['editing'] },
    action: 'dropQueued',
    description: 'keys.dropQueued',
    hint: { label: 'hint.dropQueued', order: 4 },
  },
  // Typed on the queue line: text for the message, never an interrupt.
  { keys: ['a–z…'], match: m.isText, when: QUEUE_OPEN, action: 'type' },
];
