/**
 * Reading what the model is sent: the data blocks that mark outside text
 * (`<<<DATA <boundary> from …>>>` … `<<<END DATA <boundary>>>`) and what lies outside them.
 */
const BLOCK = /<<<DATA ([0-9a-f]{12}) [^\n]*>>>\n([\s\S]*?)\n<<<END DATA \1>>>/g;

/** `text` with every data block taken out: what reads as Cogito's own wording. */
export function outsideDataBlocks(text: string): string {
  return text.replace(BLOCK, '');
}

/** The bodies of the data blocks in `text`. */
export function dataBlocks(text: string): string[] {
  return [...text.matchAll(BLOCK)].map((m) => m[2]!);
}
