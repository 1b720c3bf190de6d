/**
 * A document crosses back from the extraction process in pieces: a head (the document with
 * every unit's text emptied, and how many pieces follow), then the units' text a slice per
 * message. One 2-million-character reply in one message costs Cogito's main thread tens of
 * milliseconds to copy and deserialise at once (the screen's echo waits behind it); pieces
 * cost a fraction of a millisecond each, and the keys are read between them.
 */
import type { ExtractedDocument } from './types.js';

/** Characters of a unit's text per message. */
export const PIECE_CHARS = 64 * 1024;

/** The first message of a document reply. */
export interface DocumentHead {
  readonly id: number;
  readonly ok: true;
  /** The document, every unit's `markdown` empty: its text follows in {@link DocumentPiece}s. */
  readonly head: ExtractedDocument;
  readonly pieces: number;
}

/** A slice of one unit's text, in order. */
export interface DocumentPiece {
  readonly id: number;
  /** Index of the unit in `head.units`. */
  readonly unit: number;
  readonly text: string;
}

/** The messages that carry `doc` for job `id`: the head, then the pieces in order. */
export function splitDocument(
  id: number,
  doc: ExtractedDocument,
  pieceChars: number = PIECE_CHARS,
): [DocumentHead, ...DocumentPiece[]] {
  const pieces: DocumentPiece[] = [];
  doc.units.forEach((unit, index) => {
    const text = String(unit.markdown);
    // A slice may end between the two halves of a surrogate pair: joining restores it.
    for (let at = 0; at < text.length; at += pieceChars) {
      pieces.push({ id, unit: index, text: text.slice(at, at + pieceChars) });
    }
  });
  const head = { ...doc, units: doc.units.map((u) => ({ ...u, markdown: '' })) };
  return [{ id, ok: true, head, pieces: pieces.length }, ...pieces];
}

/** Puts a document back together from its head and pieces, as they arrive. */
export class DocumentAssembler {
  private readonly parts: string[][];
  private received = 0;

  constructor(private readonly first: DocumentHead) {
    this.parts = first.head.units.map(() => []);
  }

  /** Adds a piece; the whole document once the last has come, else undefined. */
  add(piece: DocumentPiece): ExtractedDocument | undefined {
    const unit = this.parts[piece.unit];
    if (unit === undefined) throw new Error(`a piece for unit ${piece.unit}, which is not there`);
    unit.push(piece.text);
    this.received++;
    return this.done();
  }

  /** The document when every piece has come (at once for a document with no text). */
  done(): ExtractedDocument | undefined {
    if (this.received < this.first.pieces) return undefined;
    const { head } = this.first;
    return {
      ...head,
      units: head.units.map((u, i) => ({ ...u, markdown: this.parts[i]!.join('') })),
    };
  }
}
