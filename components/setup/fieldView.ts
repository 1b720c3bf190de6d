/** How a one-line field shows its value in a given width: masked or not, cursor kept visible. */
import { displayWidth, graphemes, truncate } from '../text/wrap.js';

const MASK_CHAR = '•';

interface FieldView {
  before: string;
  /** The character under the cursor (a space at the end of the value). */
  at: string;
  after: string;
}

/**
 * Splits the shown text around the cursor. With `mask`, every character is shown as a bullet
 * (the secret itself never reaches the frame). When the text is wider than `width`, the
 * start is cut (marked with …) so the cursor stays in view.
 */
export function fieldView(value: string, cursor: number, mask: boolean, width: number): FieldView {
  const before = graphemes(value.slice(0, cursor));
  const rest = graphemes(value.slice(cursor));
  const show = (gs: string[]): string[] => (mask ? gs.map(() => MASK_CHAR) : gs);
  let b = show(before);
  const at = show(rest.slice(0, 1))[0] ?? ' ';
  const room = Math.max(2, width);
  if (displayWidth(b.join('')) + displayWidth(at) > room) {
    while (b.length > 0 && displayWidth(b.join('')) + displayWidth(at) + 1 > room) b = b.slice(1);
    b = ['…', ...b];
  }
  const used = displayWidth(b.join('')) + displayWidth(at);
  const after = truncate(show(rest.slice(1)).join(''), Math.max(0, room - used));
  return { before: b.join(''), at, after };
}
