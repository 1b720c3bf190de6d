import { TextDecoder } from 'node:util';

/**
 * Text decoding for fetched pages. Order follows the HTML spec's "encoding sniffing":
 * a byte-order mark wins, then the Content-Type header's charset, then a `<meta charset>`
 * or `<meta http-equiv="Content-Type">` in the first bytes, then UTF-8. Node's
 * TextDecoder (full ICU) handles GBK, GB18030, Big5, Shift_JIS, EUC-KR and the rest.
 */

/** How far into the body a `<meta>` charset is looked for (the spec says 1024 bytes). */
const META_SCAN_BYTES = 4096;

/** Returns the charset parameter of a Content-Type header value, lower-cased, if any. */
export function charsetFromContentType(contentType: string | null | undefined): string | undefined {
  if (!contentType) return undefined;
  const match = /;\s*charset\s*=\s*("?)([^";\s]+)\1/i.exec(contentType);
  return match?.[2]?.toLowerCase();
}

/** Finds `<meta charset="…">` or `<meta http-equiv content="…; charset=…">` near the top. */
export function charsetFromMeta(bytes: Uint8Array): string | undefined {
  // latin1 maps every byte to one char, so ASCII markup is readable whatever the encoding.
  const head = Buffer.from(
    bytes.buffer,
    bytes.byteOffset,
    Math.min(bytes.byteLength, META_SCAN_BYTES),
  ).toString('latin1');
  for (const tag of head.match(/<meta\b[^>]*>/gi) ?? []) {
    const label = /\bcharset\s*=\s*["']?\s*([\w.:-]+)/i.exec(tag)?.[1]?.toLowerCase();
    // A page whose <meta> we could read as ASCII cannot really be UTF-16 (spec rule).
    if (label !== undefined) return label.startsWith('utf-16') ? 'utf-8' : label;
  }
  return undefined;
}

/** Detects a UTF-8 / UTF-16 byte-order mark. */
function charsetFromBom(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

/**
 * A TextDecoder for `label`, or undefined when the label is unknown. `x-gbk`, `gb2312` and
 * friends are WHATWG aliases TextDecoder already understands.
 */
function decoderFor(label: string): TextDecoder | undefined {
  try {
    return new TextDecoder(label);
  } catch {
    return undefined;
  }
}

interface Decoded {
  text: string;
  /** The encoding actually used, as TextDecoder names it (`gbk`, `utf-8` …). */
  encoding: string;
}

/**
 * Decodes a body. `sniffMeta` is for HTML only: a JSON or plain-text body is not searched for
 * markup. Unknown labels fall through to the next source rather than failing.
 */
export function decodeBody(
  bytes: Uint8Array,
  contentType: string | null | undefined,
  sniffMeta = true,
): Decoded {
  const candidates = [
    charsetFromBom(bytes),
    charsetFromContentType(contentType),
    sniffMeta ? charsetFromMeta(bytes) : undefined,
  ];
  for (const label of candidates) {
    if (label === undefined) continue;
    const decoder = decoderFor(label);
    if (decoder) return { text: decoder.decode(bytes), encoding: decoder.encoding };
  }
  return { text: new TextDecoder('utf-8').decode(bytes), encoding: 'utf-8' };
}
