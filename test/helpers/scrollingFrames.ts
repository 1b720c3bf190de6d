/**
 * Frames of a screen whose middle pane scrolls, for the frame writer's tests: a status row
 * that changes now and then, a pane showing a window of a growing list of styled lines (some
 * CJK) that moves up as lines arrive and up or down as the user scrolls, and two fixed rows
 * below. Seeded, so a failing case replays.
 */
import { mulberry32 } from './rng.js';

const WORDS = ['alpha', 'beta', '预算', 'gamma', '会议', 'delta', 'notes', '墨水', 'epsilon'];
const STYLES = ['', '\x1b[1m', '\x1b[36m', '\x1b[2m', '\x1b[7m'];

export function scrollingFrames(seed: number, rows: number, count: number): string[][] {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const paneRows = rows - 3;
  const lines: string[] = [];
  const addLine = (): void => {
    const words = Array.from({ length: 1 + Math.floor(rnd() * 8) }, () => pick(WORDS));
    const style = pick(STYLES);
    const text = `${lines.length}: ${words.join(' ')}`;
    lines.push(style ? `${style}${text}\x1b[0m` : text);
  };
  for (let i = 0; i < paneRows; i++) addLine();
  let up = 0; // rows scrolled up from the bottom
  let status = 0;
  const frames: string[][] = [];
  for (let f = 0; f < count; f++) {
    const r = rnd();
    if (r < 0.5) for (let n = 1 + Math.floor(rnd() * 3); n > 0; n--) addLine();
    else if (r < 0.7) up = Math.min(lines.length - paneRows, up + 1 + Math.floor(rnd() * 4));
    else if (r < 0.85) up = Math.max(0, up - 1 - Math.floor(rnd() * 4));
    if (rnd() < 0.3) status += 1;
    const end = lines.length - up;
    frames.push([
      `\x1b[1m● Thinking\x1b[22m · cycle ${status}`,
      ...lines.slice(end - paneRows, end),
      `› typed ${f % 3}`,
      'Enter send · Ctrl+C quit',
    ]);
  }
  return frames;
}
