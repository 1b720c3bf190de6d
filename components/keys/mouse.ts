/**
 * Mouse wheel events from SGR mouse reporting (`ESC[?1000h` + `ESC[?1006h`): the terminal
 * sends `ESC[<button;column;rowM` for presses. Only the wheel is used (buttons 64 and 65,
 * plus modifier bits); clicks and releases are swallowed so they never reach the input box
 * as text.
 */

/** One SGR mouse report. `wheel` is set for wheel turns; `row` is 1-based from the top. */
interface MouseEvent {
  wheel: 'up' | 'down' | undefined;
  column: number;
  row: number;
}

// eslint-disable-next-line no-control-regex
const SGR_MOUSE = /^\x1b\[<(\d+);(\d+);(\d+)([Mm])$/;
/** Shift, Alt and Ctrl held during the event (bits 4, 8, 16) do not change the button. */
const MODIFIERS = 4 | 8 | 16;

/** The mouse event `data` encodes, or undefined when it is not a mouse report. */
export function parseMouse(data: string): MouseEvent | undefined {
  const m = SGR_MOUSE.exec(data);
  if (!m) return undefined;
  const button = Number(m[1]) & ~MODIFIERS;
  const wheel =
    m[4] === 'M' && button === 64 ? 'up' : m[4] === 'M' && button === 65 ? 'down' : undefined;
  return { wheel, column: Number(m[2]), row: Number(m[3]) };
}

// eslint-disable-next-line no-control-regex
const SGR_MOUSE_ALL = /\x1b\[<\d+;\d+;\d+[Mm]/g;

/**
 * The mouse reports of one terminal read when it holds nothing else (a fast wheel can send
 * several in one read), or undefined when it is not made of mouse reports.
 */
export function mouseReports(data: string): MouseEvent[] | undefined {
  if (!data.startsWith('\x1b[<')) return undefined;
  const all = data.match(SGR_MOUSE_ALL);
  if (!all || all.join('') !== data) return undefined;
  return all.map((d) => parseMouse(d)!);
}
