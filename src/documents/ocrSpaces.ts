/**
 * Puts back the spaces OCR dropped between English words.
 *
 * PaddleOCR's Chinese-and-English recogniser reads each character of a long printed line
 * well but often runs the words together ("Fontconfigisalibrarydesigned"): spaces are rare
 * in its training text. A run of letters that is no English word is split where a split into
 * common words is much likelier, by the method of `wordninja` (a word's cost is the log of
 * its popularity rank; the cheapest split wins, found by dynamic programming). The word list
 * is `popular-english-words` (Wikipedia frequencies, bundled), loaded on the first OCR.
 */

/** How many of the most popular words count; rarer ones are treated as unknown. */
const VOCABULARY = 100_000;
/** Runs shorter than this are left alone: short merges are rare and splitting them risky. */
const MIN_RUN = 7;
const MAX_WORD = 24;

interface Dictionary {
  readonly cost: ReadonlyMap<string, number>;
  /** The cost of a piece that is no word: a little worse than the rarest word, per letter. */
  readonly unknownCost: (length: number) => number;
}

let dictionary: Promise<Dictionary> | undefined;

async function loadDictionary(): Promise<Dictionary> {
  const { words } = (await import('popular-english-words/words.js')) as { words: string[] };
  const cost = new Map<string, number>();
  const logN = Math.log(VOCABULARY);
  let rank = 0;
  for (const word of words) {
    if (rank >= VOCABULARY) break;
    // Single letters other than "a" and "I" are noise in the list (initials, list markers).
    if (!/^[a-z]+$/.test(word) || (word.length === 1 && word !== 'a' && word !== 'i')) continue;
    if (cost.has(word)) continue;
    rank++;
    cost.set(word, Math.log(rank * logN));
  }
  const rarest = Math.log(VOCABULARY * logN);
  return { cost, unknownCost: (length) => rarest + 2 + length * 2.5 };
}

/** The cheapest split of a lower-case run into words (unknown pieces allowed, at a price). */
function split(run: string, { cost, unknownCost }: Dictionary): number[] {
  const best = new Array<number>(run.length + 1).fill(Infinity);
  const from = new Array<number>(run.length + 1).fill(0);
  best[0] = 0;
  for (let end = 1; end <= run.length; end++) {
    for (let start = Math.max(0, end - MAX_WORD); start < end; start++) {
      const piece = run.slice(start, end);
      const price = (best[start] ?? Infinity) + (cost.get(piece) ?? unknownCost(piece.length));
      if (price < (best[end] ?? Infinity)) {
        best[end] = price;
        from[end] = start;
      }
    }
  }
  const cuts: number[] = [];
  for (let end = run.length; end > 0; end = from[end] ?? 0) cuts.unshift(end);
  return cuts.slice(0, -1);
}

/** Words common enough that one glued to a capitalised word ("theShanghai") was two words. */
const COMMON_RANK = 200;

/**
 * The text with spaces put back inside long runs of letters that are no word (in lower case
 * or all capitals), and after a very common word glued to a capitalised one ("theShanghai").
 * Any other run with a capital inside (an identifier such as `FcConfigParse`) is left as it is.
 */
export async function restoreSpaces(text: string): Promise<string> {
  if (!/[A-Za-z]{7}|[a-z][A-Z]/.test(text)) return text;
  dictionary ??= loadDictionary();
  const words = await dictionary;
  const common = Math.log(COMMON_RANK * Math.log(VOCABULARY));
  return text.replace(/[A-Za-z]+/g, (run) => {
    const glued = /^([a-z]+)([A-Z][a-z]+)$/.exec(run);
    if (glued?.[1] && (words.cost.get(glued[1]) ?? Infinity) <= common) {
      return `${glued[1]} ${glued[2]}`;
    }
    // A capital inside a run is an identifier or an acronym, unless the whole run is capitals.
    const shouting = /^[A-Z]+$/.test(run);
    if (run.length < MIN_RUN || (!shouting && /[A-Z]/.test(run.slice(1)))) return run;
    const lower = run.toLowerCase();
    if (words.cost.has(lower)) return run;
    let out = '';
    let start = 0;
    for (const cut of split(lower, words)) {
      out += `${run.slice(start, cut)} `;
      start = cut;
    }
    return out + run.slice(start);
  });
}
