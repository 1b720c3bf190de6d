/**
 * PDF: the text layer of each page as Markdown (one unit a page), title, author and page count
 * up front, and pages with no text layer (scans) rendered and read by OCR.
 *
 * pdf.js (the legacy build, for Node) is told never to evaluate code from the file
 * (`isEvalSupported: false`: font programs are interpreted, not compiled into functions), to
 * load no font into the system (`disableFontFace`) and to read its CMaps, standard fonts and
 * decoders from its own package folder; it has no scripting outside its viewer, and the bytes
 * are given, so nothing is fetched from anywhere.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/types/src/display/api.js';
import { OcrUnavailable, recognise } from './ocr.js';
import { pageMarkdown, type TextRun } from './pdfLayout.js';
import {
  DocumentError,
  type DocumentUnit,
  type ExtractedDocument,
  type ExtractInput,
} from './types.js';

type PdfJs = typeof PdfJsModule;

/** Longest side, in pixels, a text-less page is rendered at for OCR (~120 dpi on A4). */
const OCR_RENDER_SIDE = 1400;

function pdfjsFolder(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve('pdfjs-dist/package.json'));
}

async function open(pdfjs: PdfJs, input: ExtractInput): Promise<PDFDocumentProxy> {
  const folder = pdfjsFolder();
  const task = pdfjs.getDocument({
    // A copy: pdf.js may transfer (detach) the buffer it is given.
    data: new Uint8Array(input.bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    enableXfa: false,
    useWorkerFetch: false,
    cMapUrl: path.join(folder, 'cmaps') + path.sep,
    cMapPacked: true,
    standardFontDataUrl: path.join(folder, 'standard_fonts') + path.sep,
    wasmUrl: path.join(folder, 'wasm') + path.sep,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  });
  try {
    return await task.promise;
  } catch (error) {
    await task.destroy().catch(() => undefined);
    const name = error instanceof Error ? error.name : '';
    const message = error instanceof Error ? error.message : String(error);
    if (name === 'PasswordException') {
      throw new DocumentError(
        'encrypted',
        `${input.name} is a password-protected PDF: it cannot be read without its password. ` +
          'Ask the user for an unprotected copy.',
      );
    }
    throw new DocumentError(
      'malformed',
      `${input.name} is not a readable PDF (${message}). It may be damaged, truncated or not a PDF at all.`,
    );
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim().length > 0 ? value.trim() : undefined;
}

async function metaOf(pdfjs: PdfJs, doc: PDFDocumentProxy): Promise<(readonly [string, string])[]> {
  const meta: (readonly [string, string])[] = [];
  const { info, metadata } = await doc.getMetadata().catch(() => ({ info: {}, metadata: null }));
  const fields = info as Record<string, unknown>;
  // Producers that know no title write a placeholder; it says nothing.
  const title = [text(fields['Title']), text(metadata?.get('dc:title'))].find(
    (candidate) => candidate !== undefined && !/^untitled$/i.test(candidate),
  );
  const author = text(fields['Author']) ?? text(metadata?.get('dc:creator'));
  if (title) meta.push(['Title', title]);
  if (author) meta.push(['Author', author]);
  const subject = text(fields['Subject']);
  if (subject) meta.push(['Subject', subject]);
  meta.push(['Pages', String(doc.numPages)]);
  const creation = text(fields['CreationDate']);
  const created = creation ? pdfjs.PDFDateString.toDateObject(creation) : null;
  if (created) meta.push(['Created', created.toISOString().slice(0, 10)]);
  return meta;
}

/** The page's text runs (marked-content markers have no `str`). */
async function runsOf(page: PDFPageProxy): Promise<TextRun[]> {
  const content = await page.getTextContent();
  return content.items.filter((item): item is TextRun & typeof item => 'str' in item);
}

/** Whether the page paints any image: a text-less page without one is blank, not a scan. */
async function paintsImage(pdfjs: PdfJs, page: PDFPageProxy): Promise<boolean> {
  const { OPS } = pdfjs;
  const imageOps = new Set<number>([
    OPS.paintImageXObject,
    OPS.paintInlineImageXObject,
    OPS.paintImageMaskXObject,
    OPS.paintImageXObjectRepeat,
    OPS.paintInlineImageXObjectGroup,
  ]);
  const list = await page.getOperatorList();
  return list.fnArray.some((op) => imageOps.has(op));
}

/** Renders the page to PNG with @napi-rs/canvas (pdf.js's own canvas in Node). */
async function renderPage(doc: PDFDocumentProxy, page: PDFPageProxy): Promise<Uint8Array> {
  const base = page.getViewport({ scale: 1 });
  const scale = Math.min(3, OCR_RENDER_SIDE / Math.max(base.width, base.height));
  const viewport = page.getViewport({ scale });
  const factory = doc.canvasFactory as {
    create(
      width: number,
      height: number,
    ): {
      canvas: { encode(format: 'png'): Promise<Uint8Array> };
      context: CanvasRenderingContext2D;
    };
  };
  const { canvas, context } = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
  await page.render({
    canvas: canvas as unknown as HTMLCanvasElement,
    canvasContext: context,
    viewport,
  }).promise;
  return canvas.encode('png');
}

/** Reads a PDF's pages in `input.options.units` (all by default) up to `input.limits.maxChars`. */
export async function extract(input: ExtractInput): Promise<ExtractedDocument> {
  if (input.bytes.length === 0) {
    throw new DocumentError(
      'malformed',
      `${input.name} is empty (0 bytes): there is no PDF to read.`,
    );
  }
  const pdfjs: PdfJs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await open(pdfjs, input);
  try {
    const total = doc.numPages;
    const meta = await metaOf(pdfjs, doc);
    const notes: string[] = [];
    const from = Math.max(1, input.options.units?.from ?? 1);
    const to = Math.min(total, input.options.units?.to ?? total);
    if (from > total) notes.push(`${input.name} has ${total} pages; there is no page ${from}.`);
    const units: (DocumentUnit & { number: number })[] = [];
    const ocrPages: number[] = [];
    let chars = 0;
    let ocrMissing: string | undefined;
    for (let number = from; number <= to; number++) {
      if (chars >= input.limits.maxChars) {
        notes.push(
          `Stopped after page ${number - 1} of ${total}: the output cap of ` +
            `${input.limits.maxChars} characters was reached. Read pages ${number}-${total} separately.`,
        );
        break;
      }
      const page = await doc.getPage(number);
      let markdown = pageMarkdown(await runsOf(page));
      let source: 'ocr' | undefined;
      if (markdown.length === 0 && (await paintsImage(pdfjs, page))) {
        if (input.options.ocr === false) {
          notes.push(`Page ${number} has no text layer (a scan?); OCR was turned off.`);
        } else if (ocrMissing === undefined) {
          try {
            markdown = await recognise(await renderPage(doc, page));
            source = 'ocr';
            ocrPages.push(number);
          } catch (error) {
            if (!(error instanceof OcrUnavailable)) throw error;
            ocrMissing = error.message;
          }
        }
      }
      page.cleanup();
      const room = input.limits.maxChars - chars;
      if (markdown.length > room) {
        markdown = markdown.slice(0, room);
        notes.push(
          `Page ${number} was cut at the output cap of ${input.limits.maxChars} characters.`,
        );
      }
      chars += markdown.length;
      units.push({ number, title: `Page ${number}`, markdown, ...(source ? { source } : {}) });
    }
    if (ocrPages.length > 0) {
      notes.push(
        `Page ${ocrPages.join(', ')} had no text layer and ${ocrPages.length > 1 ? 'were' : 'was'} read by OCR; OCR can misread words.`,
      );
    }
    if (ocrMissing) notes.push(`Pages without a text layer were left empty. ${ocrMissing}`);
    return { kind: 'pdf', label: 'PDF', meta, unitName: 'page', unitCount: total, units, notes };
  } finally {
    await doc.destroy();
  }
}
