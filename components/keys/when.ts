/** The conditions the key table uses most, named once (see bindings.ts). */
import type { MachineState } from '../../src/machine/machine.js';
import type { Focus, When } from './types.js';

/** The agent listens: the input box sends. */
export const LISTENING: readonly MachineState[] = ['AWAITING_INPUT', 'PAUSED'];
export const NOT_APPROVAL: readonly MachineState[] = ['THINKING', 'AWAITING_INPUT', 'PAUSED'];
const PANES: readonly Focus[] = ['reply', 'reasoning'];

export const ALWAYS: When = { overlay: 'any' };
export const OVERLAYS: When = { overlay: ['help', 'detail'] };
/** The session picker (`/resume`) is open. */
export const PICKER: When = { overlay: ['sessions'] };
export const APPROVAL: When = { states: ['AWAITING_APPROVAL'] };
/** A call waits, and the prompt has been seen with no typing since (APPROVAL_ARM_MS). */
export const ARMED: When = { ...APPROVAL, approvalArmed: true };
export const THINKING: When = { states: ['THINKING'] };
export const INPUT: When = { focus: ['input'] };
export const TOOLS: When = { focus: ['tools'] };
export const PANE: When = { focus: PANES };
export const ENDS: When = { focus: [...PANES, 'tools'] };
/** The `@` path list is open under the input line (it takes ↑↓, Tab, Enter and Esc). */
export const MENTION: When = { focus: ['input'], mention: true, states: NOT_APPROVAL };
/** The input line is the queue line (a new message, or a queued one being edited). */
export const QUEUE_OPEN: When = { queueLine: ['new', 'editing'] };
