/**
 * How the rows of the terminal are shared out. Pure: the screen calls it with the window
 * size and what it has to show. The frame is always one row shorter than the terminal (at
 * full height Ink 6.8 clears and redraws the whole screen on every update). Small terminals
 * drop the reasoning and tool panes first, then titles and hints; 20×6 still gets a status
 * line, a few rows of conversation and the input line.
 */
import type { Focus } from './keys/bindings.js';

export interface LayoutInput {
  columns: number;
  rows: number;
  /** Rows the input text wants (its wrapped lines). */
  inputLines: number;
  /** The status bar has a second line to show (pause reason, a fresh notice). */
  statusMessage: boolean;
  approval: boolean;
  /** Rows of the approval card's content (call, reason, detail, wrapped), if any. */
  approvalRows?: number;
  /** Rows the `@` path list under the input wants (0 or absent: closed). */
  mentionRows?: number;
}

export interface Layout {
  width: number;
  /** Rows the frame uses in all: always less than the terminal's rows. */
  height: number;
  status: number;
  /** Pane title rows are shown. */
  titles: boolean;
  /** Body rows of each pane; 0 hides it. */
  reasoning: number;
  reply: number;
  tools: number;
  /** The rows the panes take together, titles included (overlays cover exactly these). */
  panes: number;
  approval: number;
  input: number;
  /** A title rule above the input line. */
  inputRule: boolean;
  /** Rows of the `@` path list, under the input line (taken from the panes). */
  mentions: number;
  hint: boolean;
}

const clamp = (x: number, lo: number, hi: number): number => Math.max(lo, Math.min(hi, x));

export function computeLayout(inp: LayoutInput): Layout {
  const width = Math.max(1, Math.floor(inp.columns));
  const height = Math.max(1, Math.floor(inp.rows) - 1);
  let status = inp.statusMessage && height >= 10 ? 2 : 1;
  const hint = height >= 8;
  const inputRule = height >= 8;
  const maxInput = height >= 20 ? 6 : height >= 12 ? 3 : 1;
  let input = clamp(inp.inputLines, 1, maxInput);
  const approval = !inp.approval
    ? 0
    : height >= 14
      ? 2 + cardSpace(inp.approvalRows ?? 2, height)
      : height >= 8
        ? 2
        : 1;

  let free = height - status - (hint ? 1 : 0) - (inputRule ? 1 : 0) - input - approval;
  // The `@` list takes rows from the panes, leaving them at least three.
  const mentions = clamp(inp.mentionRows ?? 0, 0, Math.max(0, free - 3));
  free -= mentions;
  // Only on absurdly small terminals: the approval question outranks the status line, and
  // the status line outranks the input line (which cannot be used while a call waits anyway).
  if (free < 0 && status > 0) {
    status -= 1;
    free += 1;
  }
  if (free < 0 && approval > 0 && input > 0) {
    input -= 1;
    free += 1;
  }
  const base = { width, height, status, approval, input, inputRule, mentions, hint };

  if (free >= 14 && width >= 50) {
    const reasoning = clamp(Math.round(free * 0.2), 2, 8);
    const tools = clamp(Math.round(free * 0.22), 3, 10);
    const reply = free - 3 - reasoning - tools;
    return { ...base, titles: true, reasoning, reply, tools, panes: free };
  }
  if (free >= 5)
    return { ...base, titles: true, reasoning: 0, reply: free - 1, tools: 0, panes: free };
  return {
    ...base,
    titles: false,
    reasoning: 0,
    reply: Math.max(0, free),
    tools: 0,
    panes: Math.max(0, free),
  };
}

/**
 * Rows for the approval card's content (title and question aside): all of it when it fits
 * in two plus the spare rows, else the spare rows and a "lines X–Y of N" line. The spare rows
 * grow with the terminal while the conversation keeps at least half of it.
 */
function cardSpace(contentRows: number, height: number): number {
  const spare = clamp(Math.floor((height - 14) / 2), 0, 12);
  return contentRows <= 2 + spare ? Math.max(2, contentRows) : 3 + spare;
}

/** The input box's first row on screen (0-based): below the status, panes, approval and rule. */
export function inputTop(l: Layout): number {
  return l.status + l.panes + l.approval + (l.inputRule ? 1 : 0);
}

/** The focus targets on screen, in Tab order. */
export function focusables(l: Layout): Focus[] {
  const out: Focus[] = ['input'];
  if (l.reply > 0) out.push('reply');
  if (l.reasoning > 0) out.push('reasoning');
  if (l.tools > 0) out.push('tools');
  return out;
}

/** What a wheel turn on a screen row scrolls: a pane, the open overlay, or nothing. */
export type WheelTarget = 'reasoning' | 'reply' | 'tools' | 'overlay';

/**
 * The pane on screen row `row` (1-based from the top, as mouse reports count), following
 * the screen's order: status, then the panes (or the overlay over them), then the rest.
 */
export function paneAt(l: Layout, row: number, overlay: boolean): WheelTarget | undefined {
  let at = row - 1 - l.status;
  if (at < 0) return undefined;
  if (overlay) return at < l.panes ? 'overlay' : undefined;
  const title = l.titles ? 1 : 0;
  for (const [name, body] of [
    ['reasoning', l.reasoning],
    ['reply', l.reply],
    ['tools', l.tools],
  ] as const) {
    if (body === 0) continue;
    if (at < body + title) return name;
    at -= body + title;
  }
  return undefined;
}
