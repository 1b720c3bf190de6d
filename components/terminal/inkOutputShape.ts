/**
 * Ink's private `Output` state, as 6.8 keeps it (`operations` is private in Ink's types):
 * declared here once, read only through `composeFrame` (fastOutput.ts) and only while the
 * door into Ink's internals (inkInternals.ts) is open. Its own file, so the door and the
 * frame step it installs need not import each other.
 */
type Transformer = (line: string, index: number) => string;
export type InkClip = { x1?: number; x2?: number; y1?: number; y2?: number };
export type InkOperation =
  | { type: 'write'; x: number; y: number; text: string; transformers: Transformer[] }
  | { type: 'clip'; clip: InkClip }
  | { type: 'unclip' };
export interface InkOutputState {
  width: number;
  height: number;
  operations: InkOperation[];
}
