/**
 * What reading a document gives: Markdown the model can use, cut into the document's own
 * units (pages, slides, sheets, chapters, messages, archive members), with the facts a reader
 * wants first (title, author, page count). Every format's extractor returns this one shape, so
 * `read`, `grep`, `find`/`ls` and the cache treat a PDF and a spreadsheet alike.
 *
 * Extractors run off the main thread (see worker.ts) on bytes the caller already read through
 * the workspace resolver: an extractor never opens a path of its own.
 */

/** The kinds of file Cogito reads beyond plain UTF-8 text. */
export type DocumentKind =
  | 'pdf'
  | 'docx'
  | 'odt'
  | 'rtf'
  | 'doc'
  | 'pptx'
  | 'odp'
  | 'xlsx'
  | 'xls'
  | 'ods'
  | 'csv'
  | 'tsv'
  | 'epub'
  | 'eml'
  | 'msg'
  | 'ipynb'
  | 'feed'
  | 'html'
  | 'image'
  | 'audio'
  | 'video'
  | 'zip'
  | 'tar'
  | 'gzip'
  | 'text';

/** The unit a document is cut into; `read`'s `pages` range counts these. */
export type UnitName =
  'page' | 'slide' | 'sheet' | 'chapter' | 'message' | 'cell' | 'member' | 'part' | 'item';

/** One page, slide, sheet, chapter… as Markdown, with its own heading. */
export interface DocumentUnit {
  /** Shown as the unit's heading: `Page 3`, `Slide 2: Results`, `Sheet "Q1"`. */
  readonly title: string;
  readonly markdown: string;
  /** How the text was obtained when not from the file's own text (`ocr`). */
  readonly source?: 'ocr';
}

/** What an extractor returns. */
export interface ExtractedDocument {
  readonly kind: DocumentKind;
  /** A plain name for the kind, for the model and `ls`: `PDF`, `Word document`, `Outlook e-mail`. */
  readonly label: string;
  /** Facts shown before the content, in order: title, author, pages, date, from/to… */
  readonly meta: ReadonlyArray<readonly [label: string, value: string]>;
  readonly unitName: UnitName;
  /** Total units in the document, when known even though not all were extracted. */
  readonly unitCount: number;
  /** The extracted units (all, or those asked for), each with its 1-based number. */
  readonly units: ReadonlyArray<DocumentUnit & { readonly number: number }>;
  /** What was left out or could not be read, said to the model (never silently dropped). */
  readonly notes: readonly string[];
}

/** What the caller may ask of an extractor. */
export interface ExtractOptions {
  /** 1-based inclusive range of units (pages, slides, sheets…); absent: all, up to the caps. */
  readonly units?: { readonly from: number; readonly to: number };
  /** Rows of a sheet to show (1-based inclusive), for big sheets. */
  readonly rows?: { readonly from: number; readonly to: number };
  /** An archive member to read instead of listing the archive. */
  readonly member?: string;
  /** Include GPS coordinates from a photo's metadata (off unless asked: they locate people). */
  readonly gps?: boolean;
  /** Run OCR on images and text-less PDF pages (default true). */
  readonly ocr?: boolean;
}

/** Limits every extractor honours; exceeding one is a note or a {@link DocumentError}. */
export interface ExtractLimits {
  /** Most characters of Markdown returned in all. */
  readonly maxChars: number;
  /** Most bytes any decompression may produce (zip bombs, gzip, deflated XML). */
  readonly maxInflatedBytes: number;
  /** Deepest archive nesting followed. */
  readonly maxDepth: number;
}

export const DEFAULT_LIMITS: ExtractLimits = {
  maxChars: 2_000_000,
  maxInflatedBytes: 200 * 1024 * 1024,
  maxDepth: 3,
};

/** An extractor's input: the bytes already read through the workspace resolver. */
export interface ExtractInput {
  readonly bytes: Uint8Array;
  /** The workspace-relative name, for messages and for formats told apart by extension. */
  readonly name: string;
  readonly options: ExtractOptions;
  readonly limits: ExtractLimits;
}

/**
 * Why a document could not be read; the message names the file and what is wrong. `missing`:
 * the part asked for is not there (an archive member that does not exist).
 */
export type DocumentErrorKind =
  | 'encrypted'
  | 'malformed'
  | 'too_large'
  | 'unsupported'
  | 'timeout'
  | 'missing'
  /** The turn was interrupted (Esc) and the extraction process killed. */
  | 'aborted';

/** Thrown by extractors; crosses the worker boundary as `{ kind, message }`. */
export class DocumentError extends Error {
  constructor(
    readonly kind: DocumentErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'DocumentError';
  }
}

/** One format's reader. Loaded lazily, so a session that reads no PDF never loads pdf.js. */
export type Extractor = (input: ExtractInput) => Promise<ExtractedDocument>;

/**
 * What a library's own failure means for the user: a password is `encrypted`, anything else
 * `malformed`, named by file and by what it was read as ("a spreadsheet").
 */
export function libraryFailure(name: string, error: unknown, readAs: string): DocumentError {
  const message = error instanceof Error ? error.message : String(error);
  if (/encrypt|password/i.test(message)) {
    return new DocumentError(
      'encrypted',
      `"${name}" is password-protected; it cannot be read without the password.`,
    );
  }
  return new DocumentError('malformed', `"${name}" could not be read as ${readAs}: ${message}.`);
}
