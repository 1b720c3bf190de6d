/**
 * Text or binary? And if text, in which encoding? Users' files are UTF-8, GBK for many
 * Chinese users, and also Windows-1252/Latin-1 (Western Windows), Shift-JIS, EUC-KR, Big5 and
 * UTF-16 (Windows' "Unicode", often without a byte-order mark). All of them are decoded, never
 * refused: a byte-order mark decides first, then strict UTF-8, then chardet's statistical
 * guess (ICU's detector: character frequencies per encoding), checked by a strict decode.
 * Only bytes that are no text in any of these are called binary.
 */
import { analyse } from 'chardet';
import { sniffBinaryType } from './magic.js';

/** The encodings decoded here, by their WHATWG names (Node's TextDecoder knows them all). */
export type TextEncodingName =
  | 'utf-8'
  | 'utf-16le'
  | 'utf-16be'
  | 'gb18030'
  | 'big5'
  | 'shift_jis'
  | 'euc-jp'
  | 'euc-kr'
  | 'windows-1252';

/** Bytes read as text. */
export interface DecodedText {
  kind: 'text';
  text: string;
  encoding: TextEncodingName;
  bom: boolean;
}

export type Decoded = DecodedText | { kind: 'binary'; type: string };

/** How much of the start of a file the binary heuristics and the detector look at. */
const SAMPLE_BYTES = 64 * 1024;
/** Above this share of control bytes, "text" is really binary data. */
const MAX_CONTROL_RATIO = 0.05;
/** Below this confidence (0–100) chardet's first choice is not trusted over the fallbacks. */
const MIN_CONFIDENCE = 30;
/** Above this share of C1 controls or private-use characters, a decode is not text. */
const MAX_INVALID_RATIO = 0.01;

/** chardet's names for the encodings it reports, mapped to ours. */
const FROM_CHARDET: Readonly<Record<string, TextEncodingName>> = {
  'UTF-8': 'utf-8',
  'UTF-16LE': 'utf-16le',
  'UTF-16BE': 'utf-16be',
  GB18030: 'gb18030',
  Big5: 'big5',
  Shift_JIS: 'shift_jis',
  'EUC-JP': 'euc-jp',
  'EUC-KR': 'euc-kr',
  'ISO-8859-1': 'windows-1252',
  'windows-1252': 'windows-1252',
};

/**
 * Tried in this order when the detector is unsure (short files): GBK first, as before, since
 * Cogito's users write Chinese; Windows-1252 last, because every byte sequence decodes in it.
 */
const FALLBACKS: readonly TextEncodingName[] = ['gb18030', 'shift_jis', 'big5', 'euc-kr'];

/** A short label for a decoded encoding, shown as `decoded from …`. */
export function encodingLabel(encoding: TextEncodingName): string {
  if (encoding === 'gb18030') return 'GBK';
  if (encoding === 'shift_jis') return 'Shift-JIS';
  if (encoding === 'big5') return 'Big5';
  return encoding.toUpperCase().replace(/^WINDOWS/, 'Windows');
}

/**
 * Decodes a file's bytes as text, or says it is binary (naming the format when its magic
 * number is known).
 */
export function decodeText(buf: Uint8Array): Decoded {
  const bomed = decodeWithBom(buf);
  if (bomed !== undefined) return bomed;
  const sample = buf.subarray(0, SAMPLE_BYTES);
  const known = sniffBinaryType(sample);
  if (known !== undefined) return { kind: 'binary', type: known };
  const wide = utf16WithoutBom(sample);
  if (wide !== undefined) {
    const decoded = decodeAs(buf, wide, false);
    return decoded !== undefined && plausible(decoded.text) && !controlHeavy(decoded.text)
      ? decoded
      : binary();
  }
  if (sample.includes(0) || controlRatio(sample) > MAX_CONTROL_RATIO) return binary();
  const utf8 = decodeAs(buf, 'utf-8', false);
  if (utf8 !== undefined) return utf8;
  for (const encoding of candidates(sample, highBytesPaired(sample))) {
    const decoded = decodeAs(buf, encoding, false);
    if (decoded !== undefined && plausible(decoded.text)) return decoded;
  }
  return binary('binary data (not text in any encoding Cogito reads)');
}

function binary(type = 'binary data'): Decoded {
  return { kind: 'binary', type };
}

function decodeWithBom(buf: Uint8Array): Decoded | undefined {
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) {
    return decodeAs(buf.subarray(3), 'utf-8', true) ?? lenient(buf.subarray(3), 'utf-8');
  }
  if (buf[0] === 0xff && buf[1] === 0xfe) return lenient(buf.subarray(2), 'utf-16le');
  if (buf[0] === 0xfe && buf[1] === 0xff) return lenient(buf.subarray(2), 'utf-16be');
  return undefined;
}

/** A marked file is decoded whatever it holds: a stray bad sequence becomes U+FFFD. */
function lenient(buf: Uint8Array, encoding: TextEncodingName): DecodedText {
  return { kind: 'text', text: new TextDecoder(encoding).decode(buf), encoding, bom: true };
}

/** Strict decode: undefined when the bytes are not valid in `encoding`. */
function decodeAs(
  buf: Uint8Array,
  encoding: TextEncodingName,
  bom: boolean,
): DecodedText | undefined {
  if (encoding === 'windows-1252') return { kind: 'text', text: windows1252(buf), encoding, bom };
  try {
    const text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(buf);
    return { kind: 'text', text, encoding, bom };
  } catch {
    return undefined;
  }
}

/**
 * UTF-16 without a byte-order mark: ASCII-range text leaves a NUL in every other byte, on the
 * odd side for little-endian and the even side for big-endian.
 */
function utf16WithoutBom(sample: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const pairs = Math.floor(sample.length / 2);
  if (pairs < 8) return undefined;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i + 1 < sample.length; i += 2) {
    if (sample[i] === 0) evenZero++;
    if (sample[i + 1] === 0) oddZero++;
  }
  if (oddZero / pairs > 0.3 && evenZero / pairs < 0.05) return 'utf-16le';
  if (evenZero / pairs > 0.3 && oddZero / pairs < 0.05) return 'utf-16be';
  return undefined;
}

/**
 * The encodings to try, in order. Text whose bytes above 0x7F come in runs (two-byte
 * characters) is CJK: the detector's multi-byte choices, then the fallbacks, then
 * Windows-1252. Text whose high bytes stand alone between ASCII (accented letters, curly
 * quotes) is Windows-1252 and nothing else: a CJK decoder would pair each with the next
 * letter into a rare ideograph.
 */
function candidates(sample: Uint8Array, paired: boolean): TextEncodingName[] {
  if (!paired) return ['windows-1252'];
  const sure = analyse(sample)
    .filter((m) => m.confidence >= MIN_CONFIDENCE)
    .map((m) => FROM_CHARDET[m.name])
    .filter((e): e is TextEncodingName => e !== undefined && e !== 'utf-8' && e !== 'windows-1252');
  return [...new Set([...sure, ...FALLBACKS, 'windows-1252' as const])];
}

/** Whether most bytes above 0x7F have another such byte beside them. */
function highBytesPaired(sample: Uint8Array): boolean {
  let high = 0;
  let paired = 0;
  for (let i = 0; i < sample.length; i++) {
    if ((sample[i] ?? 0) < 0x80) continue;
    high++;
    if ((sample[i - 1] ?? 0) >= 0x80 || (sample[i + 1] ?? 0) >= 0x80) paired++;
  }
  return high > 0 && paired / high > 0.6;
}

/**
 * Windows-1252's 0x80–0x9F (€, curly quotes, dashes…). Node 20's TextDecoder decodes
 * "windows-1252" as ISO-8859-1 and turns these into C1 controls, so they are mapped here.
 * The five unassigned bytes stay C1 controls, which {@link plausible} counts against the text.
 */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

export function windows1252(buf: Uint8Array): string {
  const latin1 = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('latin1');
  return latin1.replace(/[\x80-\x9f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80] ?? c);
}

/**
 * A decode that is really text: few C1 controls (what stray bytes become in single-byte
 * decoders) and few private-use characters (what the GBK decoder maps unassigned pairs to).
 */
function plausible(text: string): boolean {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0xfffd || (c >= 0xe000 && c <= 0xf8ff) || (c >= 0x80 && c <= 0x9f)) n++;
  }
  return n / Math.max(text.length, 1) <= MAX_INVALID_RATIO;
}

/** Decoded text with more control characters than text has (binary read as UTF-16). */
function controlHeavy(text: string): boolean {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) n++;
  }
  return n / Math.max(text.length, 1) > MAX_CONTROL_RATIO;
}

/** Share of bytes that are control characters other than tab, newlines, form feed, backspace and escape. */
function controlRatio(sample: Uint8Array): number {
  if (sample.length === 0) return 0;
  let n = 0;
  for (const b of sample) {
    if (
      b < 0x20 &&
      b !== 0x09 &&
      b !== 0x0a &&
      b !== 0x0d &&
      b !== 0x0c &&
      b !== 0x08 &&
      b !== 0x1b
    )
      n++;
  }
  return n / sample.length;
}
