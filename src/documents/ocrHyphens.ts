/**
 * Joins the words a printed page hyphenated at line ends ("cus-" / "tomization"), as
 * `pdftotext` does with a text layer: OCR reads the hyphen and the line break as printed,
 * which splits a word into two pieces that are no words. The word list is
 * `popular-english-words` (Wikipedia frequencies, bundled), loaded on the first OCR.
 */

/** How many of the most popular words count as words. */
const VOCABULARY = 100_000;

let dictionary: Promise<ReadonlySet<string>> | undefined;

async function loadDictionary(): Promise<ReadonlySet<string>> {
  const { words } = (await import('popular-english-words/words.js')) as { words: string[] };
  return new Set(words.slice(0, VOCABULARY).filter((word) => /^[a-z]+$/.test(word)));
}

const ENDS_HYPHENATED = /(\p{L}+)-$/u;
const STARTS_LOWER = /^(\p{Ll}+)(.*)$/u;

/**
 * The text with each word hyphenated across a line end put back on the first line: without
 * its hyphen when the whole is a word (or its halves are not), with it when only the halves
 * are words ("self-" / "contained"). `isWord` is asked in lower case.
 */
export function joinHyphenated(text: string, isWord: (word: string) => boolean): string {
  const lines = text.split('\n');
  for (let i = 0; i + 1 < lines.length; i++) {
    const head = ENDS_HYPHENATED.exec(lines[i] ?? '')?.[1];
    const next = STARTS_LOWER.exec(lines[i + 1] ?? '');
    if (head === undefined || !next) continue;
    const [, tail = '', rest = ''] = next;
    const whole = `${head}${tail}`;
    const compound =
      !isWord(whole.toLowerCase()) && isWord(head.toLowerCase()) && isWord(tail.toLowerCase());
    lines[i] =
      `${(lines[i] ?? '').slice(0, -head.length - 1)}${compound ? `${head}-${tail}` : whole}`;
    const remainder = rest.trimStart();
    if (remainder) lines[i + 1] = remainder;
    else lines.splice(i + 1, 1);
  }
  return lines.join('\n');
}

/** {@link joinHyphenated} with English's 100,000 most popular words. */
export async function joinHyphenatedEnglish(text: string): Promise<string> {
  if (!/\p{L}-\n\p{Ll}/u.test(text)) return text;
  dictionary ??= loadDictionary();
  const words = await dictionary;
  return joinHyphenated(text, (word) => words.has(word));
}
