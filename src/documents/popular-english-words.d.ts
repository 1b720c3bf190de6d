/** The word list of `popular-english-words` (no types of its own): most popular first. */
declare module 'popular-english-words/words.js' {
  export const words: string[];
}
