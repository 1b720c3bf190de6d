/**
 * Carries out a resolved key action: as UI actions for the screen's reducer (uiReducer.ts),
 * and the few commands to the agent (submit, interrupt, pause, answer), and the host's quit. No key
 * decoding happens here (that is the table's job), and no agent logic.
 */
import type { AgentCommand } from '../../src/api/commands.js';
import type { ApprovalAnswer } from '../../src/api/events.js';
import type { SessionChoice } from '../../src/history/sessionChoices.js';
import type { AgentController } from '../controller.js';
import { LINE_EDITS, WHEEL_LINES, type LineEdit, type UiAction } from '../ui/uiReducer.js';
import type { Action, Resolved } from './bindings.js';
import { isLargePaste } from '../input/pastes.js';
import { normaliseTyped } from '../input/lineEditor.js';

interface PerformDeps {
  controller: AgentController;
  /** Hands a UI action to the screen's store (measured against the last frame). */
  dispatch(action: UiAction): void;
  /** The input line's text now (placeholders as shown). */
  input(): string;
  /** The message to send: the input line with each paste placeholder replaced by its text. */
  message?(): string;
  /** A large paste's placeholder words, in the screen's language (`pasted 1,100 lines`). */
  pasteWhat?(text: string): string;
  /** The queued message the queue line edits now (its id), if any. */
  editing(): string | undefined;
  complete(prefix: string): string[];
  redraw(): void;
  /** Ctrl+S: mouse reporting on or off (the screen owns the terminal mode). */
  toggleMouse?(): void;
  /** The quit keys: the root's one exit (it stops everything that started, in reverse). */
  quit(): void;
  /** Ctrl+D, /detach: the host leaves the agent running without this screen. */
  detach?(): void;
  /** This folder's sessions for the picker (absent: `/resume` goes to the agent as typed). */
  listSessions?(): Promise<readonly SessionChoice[]>;
  /** The session chosen in the picker now (its id), if it is open. */
  picked?(): string | undefined;
}

/** Key actions that are one UI action each. */
const UI: Partial<Record<Action, (r: Resolved) => UiAction>> = {
  clearInput: () => ({ type: 'clearInput' }),
  expandPaste: () => ({ type: 'expandPaste' }),
  help: () => ({ type: 'openHelp' }),
  closeOverlay: () => ({ type: 'closeOverlay' }),
  ledger: () => ({ type: 'toggleLedger' }),
  focusNext: () => ({ type: 'focusStep', step: 1 }),
  focusPrev: () => ({ type: 'focusStep', step: -1 }),
  focusInput: () => ({ type: 'focusInput' }),
  historyPrev: () => ({ type: 'historyPrev' }),
  historyNext: () => ({ type: 'historyNext' }),
  scrollUp: () => ({ type: 'scroll', by: 1 }),
  selectPrev: () => ({ type: 'scroll', by: 1 }),
  scrollDown: () => ({ type: 'scroll', by: -1 }),
  selectNext: () => ({ type: 'scroll', by: -1 }),
  pageUp: () => ({ type: 'scroll', by: 'pageUp' }),
  pageDown: () => ({ type: 'scroll', by: 'pageDown' }),
  scrollTop: () => ({ type: 'scroll', by: 'top' }),
  scrollBottom: () => ({ type: 'scroll', by: 'bottom' }),
  wheelUp: (r) => ({ type: 'wheel', lines: WHEEL_LINES, row: r.row ?? 0 }),
  wheelDown: (r) => ({ type: 'wheel', lines: -WHEEL_LINES, row: r.row ?? 0 }),
  expand: () => ({ type: 'expand' }),
  cardUp: () => ({ type: 'scrollCard', by: 1 }),
  cardDown: () => ({ type: 'scrollCard', by: -1 }),
  cardPageUp: () => ({ type: 'scrollCard', by: 'pageUp' }),
  cardPageDown: () => ({ type: 'scrollCard', by: 'pageDown' }),
  cardTop: () => ({ type: 'scrollCard', by: 'top' }),
  cardBottom: () => ({ type: 'scrollCard', by: 'bottom' }),
  pickerUp: () => ({ type: 'pickerMove', step: -1 }),
  pickerDown: () => ({ type: 'pickerMove', step: 1 }),
  mentionPrev: () => ({ type: 'mentionMove', step: -1 }),
  mentionNext: () => ({ type: 'mentionMove', step: 1 }),
  mentionAccept: () => ({ type: 'mentionAccept' }),
  mentionClose: () => ({ type: 'mentionClose' }),
};

/** Key actions that are one command to the agent. */
const AGENT: Partial<Record<Action, AgentCommand>> = {
  cancel: { type: 'interrupt' },
  interrupt: { type: 'interrupt' },
  togglePause: { type: 'toggle_pause' },
};

/** The approval keys' answers; each is sent with the id of the card the screen drew. */
const ANSWERS: Partial<Record<Action, ApprovalAnswer>> = {
  approveYes: 'yes',
  approveNo: 'no',
  approveAlways: 'always',
};

const isLineEdit = (a: Action): a is LineEdit => Object.hasOwn(LINE_EDITS, a);

export function perform(r: Resolved, env: PerformDeps): void {
  const c = env.controller;
  if (isLineEdit(r.action)) return env.dispatch({ type: 'edit', edit: r.action });
  const ui = UI[r.action];
  if (ui) return env.dispatch(ui(r));
  const command = AGENT[r.action];
  if (command) return void c.send(command);
  const answer = ANSWERS[r.action];
  if (answer) {
    // The card on screen, by its id: if the agent's view moved on (another card replaced this
    // one while the screen lagged), the agent refuses the answer instead of applying it to a
    // card the user never saw.
    const shown = c.store.getState().approval;
    if (shown) c.send({ type: 'answer_approval', answer, id: shown.id });
    return;
  }
  switch (r.action) {
    case 'quit':
      env.dispatch({ type: 'clearInput' });
      env.quit();
      return;
    case 'detach':
      env.dispatch({ type: 'clearInput' });
      env.detach?.();
      return;
    case 'type':
      env.dispatch(typed(r, env));
      return;
    case 'interruptAndType':
      c.send({ type: 'interrupt' });
      env.dispatch(typed(r, env));
      return;
    case 'redraw':
      env.redraw();
      return;
    case 'complete':
      env.dispatch({ type: 'completed', found: env.complete(env.input()) });
      return;
    case 'submit': {
      const text = env.message?.() ?? env.input();
      if (opensPicker(text, env)) {
        env.dispatch({ type: 'submitted', text });
        return openPicker(env, text);
      }
      c.send({ type: 'submit', text });
      env.dispatch({ type: 'submitted', text });
      return;
    }
    case 'pickerOpen': {
      const id = env.picked?.();
      env.dispatch({ type: 'closeOverlay' });
      // The agent opens it (the same command as typing it), so the switch is its own.
      if (id !== undefined) c.send({ type: 'submit', text: `/resume ${id}` });
      return;
    }
    case 'toggleMouse':
      env.toggleMouse?.();
      return;
    case 'openQueue':
      env.dispatch({ type: 'openQueue' });
      return;
    case 'closeQueue':
      env.dispatch({ type: 'closeQueue' });
      return;
    case 'queueMessage':
      return queueMessage(env);
    case 'steerMessage':
      return steerMessage(env);
    case 'queuePrev':
    case 'queueNext':
      env.dispatch({ type: 'pickQueued', item: pick(env, r.action === 'queuePrev' ? -1 : 1) });
      return;
    case 'dropQueued': {
      const id = env.editing();
      if (id !== undefined) c.send({ type: 'drop_queued', id });
      env.dispatch({ type: 'closeQueue' });
      return;
    }
    default:
      return;
  }
}

/** Typed or pasted text; a large paste goes in as one placeholder (input/pastes.ts). */
function typed(r: Resolved, env: PerformDeps): UiAction {
  const text = r.paste === true ? normaliseTyped(r.text ?? '') : (r.text ?? '');
  if (r.paste === true && env.pasteWhat && isLargePaste(text)) {
    return { type: 'paste', text, what: env.pasteWhat(text) };
  }
  return { type: 'type', text };
}

/**
 * `/resume` alone opens the picker, unless the agent is paused: then it is the way out of
 * the pause that the paused screen names, and goes to the agent as before.
 */
function opensPicker(text: string, env: PerformDeps): boolean {
  if (!env.listSessions || !/^\s*\/resume\s*$/i.test(text)) return false;
  return env.controller.store.getState().machine !== 'PAUSED';
}

/** Lists the sessions and opens the picker; a listing that fails sends `/resume` on as typed. */
function openPicker(env: PerformDeps, text: string): void {
  env.listSessions!().then(
    (choices) => env.dispatch({ type: 'openPicker', choices }),
    () => void env.controller.send({ type: 'submit', text }),
  );
}

/**
 * Enter on the queue line: the picked message gets the new text, or a new message is queued.
 * A picked one that a turn took meanwhile (the store's queue no longer holds it) is queued
 * anew, so what was typed is never lost. (The store, not `send`'s result: a screen attached
 * over a socket gets no result back.)
 */
function queueMessage(env: PerformDeps): void {
  const text = env.message?.() ?? env.input();
  const id = env.editing();
  const waiting = env.controller.store.getState().queued.some((q) => q.id === id);
  if (id !== undefined && waiting) env.controller.send({ type: 'edit_queued', id, text });
  else env.controller.send({ type: 'queue', text });
  env.dispatch({ type: 'closeQueue', text });
}

/**
 * Tab on the queue line: the message steers the work in flight (read at its next tool call).
 * A queued message being edited is taken out of the queue and steers instead.
 */
function steerMessage(env: PerformDeps): void {
  const text = env.input();
  const id = env.editing();
  const waiting = env.controller.store.getState().queued.some((q) => q.id === id);
  if (id !== undefined && waiting) env.controller.send({ type: 'drop_queued', id });
  env.controller.send({ type: 'steer', text });
  env.dispatch({ type: 'closeQueue', text });
}

/**
 * ↑/↓ on the queue line: the queued message before (-1) or after (+1) the one picked (↑ from
 * a new message picks the last); past the last, back to a new message.
 */
function pick(env: PerformDeps, step: -1 | 1): { id: string; text: string } | undefined {
  const queued = env.controller.store.getState().queued;
  const at = queued.findIndex((q) => q.id === env.editing());
  let next: number;
  if (step === -1) next = at === -1 ? queued.length - 1 : Math.max(0, at - 1);
  else next = at === -1 ? -1 : at + 1;
  const item = next >= 0 ? queued[next] : undefined;
  return item && { id: item.id, text: item.text };
}
