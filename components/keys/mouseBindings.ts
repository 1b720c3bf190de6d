/** The rows of the key table for the mouse: the wheel, and Ctrl+S to turn it off and on. */
import * as m from './matchers.js';
import type { Binding } from './types.js';
import { ALWAYS } from './when.js';

export const MOUSE_BINDINGS: readonly Binding[] = [
  {
    keys: ['Wheel ↑'],
    match: m.wheelUp,
    when: ALWAYS,
    action: 'wheelUp',
    description: 'keys.wheel',
  },
  {
    keys: ['Wheel ↓'],
    match: m.wheelDown,
    when: ALWAYS,
    action: 'wheelDown',
    description: 'keys.wheel',
  },
  {
    keys: ['Ctrl+S'],
    match: m.ctrl('s'),
    when: ALWAYS,
    action: 'toggleMouse',
    description: 'keys.toggleMouse',
  },
];
