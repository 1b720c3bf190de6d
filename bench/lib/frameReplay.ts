/**
 * The screens Cogito meant to show, rebuilt from the bytes it wrote, and the checks a
 * `capture-pane` screen must pass to count as a whole frame.
 *
 * Cogito's frame writer (components/terminal/frameWriter.ts) writes each frame as one
 * `ESC[?2026h … ESC[?2026l` block. The bytes are replayed into @xterm/headless, a terminal
 * emulator this project did not write (not the frame writer's own model of the screen), and
 * its screen is read at the end of every frame; a capture of the terminal is whole when it
 * equals one of those screens. A capture taken while the terminal had read only part of a
 * frame (the torn frame of issue #15) equals none of them.
 */
import xterm from '@xterm/headless';
import stringWidth from 'string-width';

const ESU = '\x1b[?2026l';

/**
 * The screen after each whole frame in `output` (what a `columns`×`rows` terminal shows once
 * it has read up to the frame's end marker), one string of trimmed rows joined by \n.
 */
export async function replayFrames(
  output: string,
  columns: number,
  rows: number,
): Promise<Set<string>> {
  const term = new xterm.Terminal({ cols: columns, rows, allowProposedApi: true, scrollback: 0 });
  const seen = new Set<string>();
  try {
    let at = 0;
    for (;;) {
      const end = output.indexOf(ESU, at);
      if (end === -1) break;
      const chunk = output.slice(at, end + ESU.length);
      await new Promise<void>((resolve) => term.write(chunk, resolve));
      const buffer = term.buffer.active;
      const lines: string[] = [];
      for (let y = 0; y < rows; y++)
        lines.push((buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '').trimEnd());
      seen.add(lines.join('\n'));
      at = end + ESU.length;
    }
  } finally {
    term.dispose();
  }
  return seen;
}

/** A capture as replayFrames keys its screens. */
export function screenKey(lines: readonly string[], rows: number): string {
  const padded = Array.from({ length: rows }, (_, i) => (lines[i] ?? '').trimEnd());
  return padded.join('\n');
}

/**
 * What is wrong with a captured Cogito screen, by the marks of the torn frames the issue
 * saw (empty when nothing is): the status bar on row 1, every pane rule the full width,
 * the input box, and the key hints on the last drawn row.
 */
export function frameFaults(lines: readonly string[], cols: number): string[] {
  const faults: string[] = [];
  if (!/^● \S/.test(lines[0] ?? '')) faults.push('no status bar on row 1');
  lines.forEach((line, i) => {
    if (/^(── |━━ )/.test(line) && stringWidth(line) !== cols)
      faults.push(`row ${i + 1}: a pane rule ${stringWidth(line)} columns wide`);
  });
  const input = lines.findIndex((l) => l.startsWith('━━ Input'));
  if (input === -1 || !(lines[input + 1] ?? '').startsWith('›')) faults.push('no input box');
  const last = lines.findLast((l) => l.trim() !== '') ?? '';
  // The hint line keeps how to quit whatever else it leaves out (a detach hint may follow it).
  if (!/Ctrl\+C quit( · |$)/.test(last.trim())) faults.push('no key hints on the last row');
  return faults;
}
