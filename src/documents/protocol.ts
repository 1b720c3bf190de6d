/**
 * The messages between Cogito and its extraction process (pool.ts ↔ worker.ts), sent with
 * Node's "advanced" IPC serialisation so bytes cross as bytes.
 */
import type { DocumentHead, DocumentPiece } from './replyPieces.js';
import type { DocumentErrorKind, DocumentKind, ExtractedDocument, ExtractInput } from './types.js';

/** One job: extract a document, or read an archive member's bytes. */
export interface WorkerJob {
  readonly id: number;
  readonly op: 'extract' | 'member';
  readonly kind: DocumentKind;
  readonly input: ExtractInput;
  /** Load the extractor from this module instead of the table (tests' hostile extractors). */
  readonly module?: string;
  /** How many bytes follow in {@link WorkerChunk} messages (the job itself carries none). */
  readonly length?: number;
}

/** A slice of a job's bytes, sent after the job so no one message is large. */
export interface WorkerChunk {
  readonly id: number;
  readonly chunk: Uint8Array;
}

/** Sent once by the extraction process when it is loaded and listening. */
export interface WorkerReady {
  readonly ready: true;
}

/**
 * A job's outcome. A document is sent as a {@link DocumentHead} and its pieces (see
 * replyPieces.ts) and put back together into the `doc` form in Cogito.
 */
export type WorkerReply =
  | { readonly id: number; readonly ok: true; readonly doc: ExtractedDocument }
  | { readonly id: number; readonly ok: true; readonly bytes: Uint8Array }
  | {
      readonly id: number;
      readonly ok: false;
      readonly error: { readonly kind: DocumentErrorKind; readonly message: string };
    };

/** Every message the extraction process sends. */
export type WorkerMessage =
  | WorkerReady
  | Exclude<WorkerReply, { readonly doc: ExtractedDocument }>
  | DocumentHead
  | DocumentPiece;
