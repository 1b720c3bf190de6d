/** Collapses whitespace in a short inline string. */
export function cleanInline(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
