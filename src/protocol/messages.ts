/**
 * Small text helpers for the parser's error messages. Every message goes back to the model,
 * so it must say what was wrong and show the form that works.
 */

/** The canonical call form, with the tool's name when it is known. */
export function expectedForm(name?: string): string {
  return `Expected: [TOOL] ${name ?? 'name'}("text", 42, true) [/TOOL]`;
}

/** A short, escaped excerpt of reply text, safe to quote inside a one-line message. */
export function snippet(text: string, max = 24): string {
  const chars = Array.from(text);
  const cut = chars.length > max ? chars.slice(0, max).join('') + '…' : text;
  return JSON.stringify(cut);
}

/** Look-alike characters that Chinese and other IMEs produce, and the ASCII the protocol needs. */
export const LOOKALIKES: Readonly<Record<string, string>> = {
  '，': ',',
  '（': '(',
  '）': ')',
  '“': '"',
  '”': '"',
  '‘': "'",
  '’': "'",
  '「': '"',
  '」': '"',
};

/** Names the character at `i` for a message, with a hint for full-width look-alikes. */
export function describeChar(src: string, i: number): string {
  const cp = src.codePointAt(i);
  if (cp === undefined) return 'end of reply';
  const ch = String.fromCodePoint(cp);
  const ascii = LOOKALIKES[ch];
  const shown = JSON.stringify(ch);
  return ascii === undefined ? shown : `${shown} (use the ASCII ${ascii} instead)`;
}
