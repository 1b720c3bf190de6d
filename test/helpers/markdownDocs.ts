/**
 * Seeded random Markdown documents for property tests of the Markdown renderer: every kind
 * of block, inline styles, links of every style (references often defined after their use),
 * CJK words, now and then a paragraph longer than the stream's cut; and random chunkings.
 */
import { mulberry32 } from './rng.js';

export type Rng = () => number;
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
export const int = (r: Rng, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

const WORDS = [
  'plan',
  'Kyoto',
  'budget',
  'the',
  'a',
  'notes',
  '旅行',
  '预算',
  'file',
  'x_y',
  '2024',
];
const LABELS = ['foo', 'Bar', 'docs', 'the spec', '参考'];

/** One inline piece: words, emphasis, code, links of every style (some to later definitions). */
function inline(r: Rng): string {
  const w = (): string => pick(r, WORDS);
  switch (int(r, 0, 11)) {
    case 0:
      return `**${w()} ${w()}**`;
    case 1:
      return `*${w()}*`;
    case 2:
      return `\`${w()}()\``;
    case 3:
      return `[${w()}](https://x.test/${w()})`;
    case 4:
      return `[${pick(r, LABELS)}]`;
    case 5:
      return `[${w()}][${pick(r, LABELS)}]`;
    case 6:
      return `_${w()}_`;
    case 7:
      return `~~${w()}~~`;
    default:
      return w();
  }
}

function sentence(r: Rng, n = int(r, 2, 10)): string {
  return Array.from({ length: n }, () => inline(r)).join(' ');
}

/** A paragraph; now and then a long one (past the stream's paragraph cut) of many lines. */
function paragraph(r: Rng): string {
  const lines = r() < 0.08 ? int(r, 30, 60) : int(r, 1, 3);
  const body = Array.from({ length: lines }, () => sentence(r)).join('\n');
  // Emphasis across many lines: the cut must not leave it half drawn at the end.
  return r() < 0.3 ? `**${body}**` : body;
}

function block(r: Rng): string {
  switch (int(r, 0, 10)) {
    case 0:
      return `${'#'.repeat(int(r, 1, 3))} ${sentence(r, 3)}`;
    case 1: {
      const bullet = pick(r, ['-', '*', '+']);
      return Array.from({ length: int(r, 1, 4) }, () => `${bullet} ${sentence(r, 3)}`).join(
        pick(r, ['\n', '\n\n']),
      );
    }
    case 2: {
      const start = pick(r, [1, 2, 9, 10, 99]);
      return Array.from({ length: int(r, 1, 4) }, (_, i) => `${start + i}. ${sentence(r, 3)}`).join(
        pick(r, ['\n', '\n\n']),
      );
    }
    case 3:
      return `> ${sentence(r)}\n> ${sentence(r, 3)}`;
    case 4:
      return `\`\`\`${pick(r, ['', 'ts', 'python'])}\nconst a = ${int(r, 0, 99)};\n\nlet b = [a];\n\`\`\``;
    case 5:
      return `| a | b |\n|---|---|\n| ${inline(r)} | ${inline(r)} |\n| ${inline(r)} | 2 |`;
    case 6:
      return pick(r, ['---', '***']);
    case 7:
      return `[${pick(r, LABELS)}]: https://ref.test/${pick(r, WORDS)}${r() < 0.3 ? ' "a title"' : ''}`;
    case 8:
      return `${sentence(r, 3)}\n${pick(r, ['===', '---'])}`;
    default:
      return paragraph(r);
  }
}

/** A document of blocks, with the definitions of its references often at its end. */
export function document(r: Rng): string {
  const blocks = Array.from({ length: int(r, 1, 9) }, () => block(r));
  if (r() < 0.6)
    for (const label of LABELS)
      if (r() < 0.5) blocks.push(`[${label}]: https://end.test/${encodeURIComponent(label)}`);
  return blocks.join(pick(r, ['\n\n', '\n\n', '\n\n\n', '\n']));
}

/** Cut points of `text` in random chunks (some a character, some hundreds). */
export function chunkEnds(r: Rng, text: string): number[] {
  const ends: number[] = [];
  for (let at = 0; at < text.length;) {
    at = Math.min(text.length, at + (r() < 0.3 ? int(r, 1, 4) : int(r, 5, 300)));
    ends.push(at);
  }
  return ends;
}

/** Document `seed`, its width and its chunk ends: one replayable case. */
export function markdownCase(seed: number, widths: [number, number] = [12, 100]) {
  const r = mulberry32(seed);
  const text = document(r);
  const width = int(r, widths[0], widths[1]);
  return { text, width, ends: chunkEnds(r, text) };
}
