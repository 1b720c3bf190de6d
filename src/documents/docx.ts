/**
 * Word documents (.docx) through mammoth, which maps Word's styles and numbering to HTML
 * headings, lists and tables; the HTML becomes Markdown here. mammoth inflates with JSZip,
 * which has no limit, so the package is vetted first (every part inflated within
 * `maxInflatedBytes`, no DTD anywhere). Images are named by their alternative text, never
 * inlined.
 */
import mammoth from 'mammoth';
import { htmlToMarkdown } from './markup.js';
import { packageMeta } from './officeMeta.js';
import { wordDocument } from './wordParts.js';
import type { ExtractInput, ExtractedDocument } from './types.js';
import { DocumentError } from './types.js';
import { descendants, parseXml, textOf } from './xmlTree.js';
import { vetPackage } from './zipParts.js';

export async function extract(input: ExtractInput): Promise<ExtractedDocument> {
  const parts = vetPackage(input, 'Word document');
  if (!parts.has('word/document.xml')) {
    throw new DocumentError(
      'malformed',
      `"${input.name}" is not a Word document: it is a ZIP package without word/document.xml.`,
    );
  }
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength) },
      {
        // mammoth reads the picture's description into `altText` (missing from its types).
        convertImage: mammoth.images.imgElement(async (image) => ({
          src: '',
          alt: (image as { altText?: string }).altText ?? '',
        })),
      },
    );
    html = result.value;
  } catch (error) {
    throw new DocumentError(
      'malformed',
      `"${input.name}" could not be read as a Word document: ${(error as Error).message}.`,
    );
  }
  const markdown = htmlToMarkdown(html);
  const meta = packageMeta(parts, input.name);
  const pages = appPages(parts.text('docProps/app.xml'), input.name);
  if (pages) meta.push(['Pages (when last saved)', pages]);
  const notes = markdown ? [] : ['The document has no text.'];
  return wordDocument(input, { kind: 'docx', label: 'Word document', meta }, markdown, notes);
}

/** The page count Word stored when it last saved (LibreOffice and pandoc may omit it). */
function appPages(xml: string | undefined, name: string): string | undefined {
  if (!xml) return undefined;
  const value = descendants(parseXml(xml, 'docProps/app.xml', name), 'Pages').map(textOf)[0];
  return value && Number(value) > 0 ? value : undefined;
}
