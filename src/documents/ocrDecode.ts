/**
 * CTC decoding of the recogniser's output: what a line of text says.
 */

/** One recognised character and where the recogniser saw it (a time step, left to right). */
export interface DecodedChar {
  readonly char: string;
  /** The output step it was emitted at; step `t` covers columns `t·width/steps…`. */
  readonly step: number;
  readonly confidence: number;
}

/**
 * Greedy CTC decoding: the likeliest class at each step, repeats collapsed, blanks (class 0)
 * dropped. `probabilities` is `steps × classes`, row by row; class `k` is `alphabet[k - 1]`.
 * The space's probability is multiplied by `spaceWeight` first: PaddleOCR's Chinese-and-English
 * recogniser sees a word space (its space is often the second likeliest class there) but,
 * trained mostly on Chinese without spaces, rarely ranks it first.
 */
export function ctcDecode(
  probabilities: ArrayLike<number>,
  steps: number,
  classes: number,
  alphabet: readonly string[],
  spaceWeight = 1,
): DecodedChar[] {
  const space = alphabet.lastIndexOf(' ') + 1;
  const out: DecodedChar[] = [];
  let previous = -1;
  for (let step = 0; step < steps; step++) {
    const row = step * classes;
    let best = 0;
    let bestScore = -Infinity;
    for (let k = 0; k < classes; k++) {
      const score = (probabilities[row + k] ?? -Infinity) * (k === space ? spaceWeight : 1);
      if (score > bestScore) {
        bestScore = score;
        best = k;
      }
    }
    if (best !== 0 && best !== previous) {
      const char = alphabet[best - 1];
      const confidence = probabilities[row + best] ?? 0;
      if (char !== undefined) out.push({ char, step, confidence });
    }
    previous = best;
  }
  return out;
}
