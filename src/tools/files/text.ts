/**
 * Text or binary? And if text, which encoding? Files on users' machines are UTF-8 or,
 * for many Chinese users, GBK; anything else that decodes badly is treated as binary so
 * the model is never handed a screen of mojibake or raw bytes.
 */

type TextEncodingName = 'utf-8' | 'gbk' | 'utf-16le' | 'utf-16be';

type Decoded =
  | { kind: 'text'; text: string; encoding: TextEncodingName; bom: boolean }
  | { kind: 'binary'; type: string };

/** How much of the start of a file the binary heuristics look at. */
const SAMPLE_BYTES = 8192;
/** Above this share of control bytes, "text" is really binary data. */
const MAX_CONTROL_RATIO = 0.05;
/** Above this share of undecodable characters after the GBK fallback, the file is binary (or in an encoding we do not read). */
const MAX_INVALID_RATIO = 0.01;

/** Magic numbers of common binary formats, to name the type in the refusal. */
const MAGIC: readonly { bytes: readonly number[]; offset?: number; type: string }[] = [
  { bytes: [0x89, 0x50, 0x4e, 0x47], type: 'PNG image' },
  { bytes: [0xff, 0xd8, 0xff], type: 'JPEG image' },
  { bytes: [0x47, 0x49, 0x46, 0x38], type: 'GIF image' },
  { bytes: [0x57, 0x45, 0x42, 0x50], offset: 8, type: 'WebP image' },
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], type: 'PDF document' },
  { bytes: [0x50, 0x4b, 0x03, 0x04], type: 'ZIP archive (also docx/xlsx/pptx)' },
  { bytes: [0x1f, 0x8b], type: 'gzip archive' },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf], type: '7z archive' },
  { bytes: [0x52, 0x61, 0x72, 0x21], type: 'RAR archive' },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], type: 'ELF executable' },
  { bytes: [0x4d, 0x5a], type: 'Windows executable' },
  { bytes: [0xcf, 0xfa, 0xed, 0xfe], type: 'Mach-O executable' },
  { bytes: [0x00, 0x61, 0x73, 0x6d], type: 'WebAssembly module' },
  { bytes: [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65], type: 'SQLite database' },
  { bytes: [0x49, 0x44, 0x33], type: 'MP3 audio' },
  { bytes: [0x66, 0x74, 0x79, 0x70], offset: 4, type: 'MP4/MOV video' },
];

/** Names the binary format from its magic number, or a generic description. */
export function sniffBinaryType(buf: Uint8Array): string | undefined {
  for (const m of MAGIC) {
    const at = m.offset ?? 0;
    if (buf.length >= at + m.bytes.length && m.bytes.every((b, i) => buf[at + i] === b)) {
      return m.type;
    }
  }
  return undefined;
}

/**
 * Decodes a file's bytes as text, or says it is binary. UTF-8 is tried strictly first,
 * then GBK; a UTF-16 byte-order mark is honoured; NUL bytes, many control bytes or many
 * undecodable sequences mean binary.
 */
export function decodeText(buf: Uint8Array): Decoded {
  if (buf[0] === 0xff && buf[1] === 0xfe) return utf16(buf, 'utf-16le');
  if (buf[0] === 0xfe && buf[1] === 0xff) return utf16(buf, 'utf-16be');
  const sample = buf.subarray(0, SAMPLE_BYTES);
  const known = sniffBinaryType(sample);
  if (known !== undefined) return { kind: 'binary', type: known };
  if (sample.includes(0) || controlRatio(sample) > MAX_CONTROL_RATIO) {
    return { kind: 'binary', type: 'binary data' };
  }
  const bom = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(
      bom ? buf.subarray(3) : buf,
    );
    return { kind: 'text', text, encoding: 'utf-8', bom };
  } catch {
    // Not UTF-8: GBK is the other encoding our users' files commonly use.
  }
  const text = new TextDecoder('gbk').decode(buf);
  const invalid = countUndecodable(text);
  if (invalid / Math.max(text.length, 1) > MAX_INVALID_RATIO) {
    return { kind: 'binary', type: 'binary data (not valid UTF-8 or GBK text)' };
  }
  return { kind: 'text', text, encoding: 'gbk', bom: false };
}

function utf16(buf: Uint8Array, encoding: 'utf-16le' | 'utf-16be'): Decoded {
  const text = new TextDecoder(encoding).decode(buf.subarray(2));
  return { kind: 'text', text, encoding, bom: true };
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
    ) {
      n++;
    }
  }
  return n / sample.length;
}

/**
 * Characters that mean "these bytes were not really GBK": the replacement character, and
 * the private-use and C1 control code points the WHATWG GBK decoder maps stray bytes to.
 */
function countUndecodable(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0xfffd || (c >= 0xe000 && c <= 0xf8ff) || (c >= 0x80 && c <= 0x9f)) n++;
  }
  return n;
}
