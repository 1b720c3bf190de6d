/**
 * Images (JPEG, PNG, WebP, TIFF, GIF, AVIF, HEIC): what the photo's metadata says (format,
 * size, date taken, camera, description, author; GPS only when asked, since it locates
 * people) and the text in it, read by local OCR.
 *
 * exifr reads EXIF/XMP/IPTC from the bytes without decoding pixels; sharp (under the optional
 * OCR) gives the size and decodes the pixels. HEIC's pixels need a codec sharp's prebuilt
 * binaries lack, so a HEIC photo gives its metadata and a note.
 */
import exifr from 'exifr';
import { OcrUnavailable, recognise } from './ocr.js';
import {
  DocumentError,
  type DocumentUnit,
  type ExtractedDocument,
  type ExtractInput,
} from './types.js';

type Meta = (readonly [string, string])[];

/** The format by its magic bytes; the extension can lie. */
function formatOf(bytes: Uint8Array): string | undefined {
  const ascii = (from: number, to: number): string =>
    String.fromCharCode(...bytes.subarray(from, to));
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'JPEG';
  if (ascii(1, 4) === 'PNG') return 'PNG';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'WebP';
  if (ascii(0, 4) === 'II*\0' || ascii(0, 4) === 'MM\0*') return 'TIFF';
  if (ascii(0, 3) === 'GIF') return 'GIF';
  if (ascii(4, 8) === 'ftyp') {
    const brand = ascii(8, 12);
    if (brand.startsWith('avi')) return 'AVIF';
    if (['heic', 'heix', 'hevc', 'mif1', 'msf1', 'heim', 'heis'].includes(brand)) return 'HEIC';
  }
  return undefined;
}

/** EXIF's `2024:07:14 18:32:05` as `2024-07-14 18:32:05` (the camera's own clock, no zone). */
function exifDate(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}:\d{2}(?::\d{2})?)/.exec(value.trim());
  return match ? `${match[1]}-${match[2]}-${match[3]} ${match[4]}` : value.trim() || undefined;
}

function plain(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number') return String(value);
  // XMP's language alternatives: { lang: 'x-default', value: '…' }.
  if (value && typeof value === 'object' && 'value' in value) return plain(value.value);
  if (Array.isArray(value)) return value.map(plain).filter(Boolean).join(', ') || undefined;
  return undefined;
}

async function sizeOf(bytes: Uint8Array): Promise<{ width: number; height: number } | undefined> {
  try {
    const sharp = (await import('sharp')).default;
    const { width, height, orientation } = await sharp(bytes).metadata();
    if (!width || !height) return undefined;
    // Orientations 5-8 turn the picture a quarter: the viewer sees it the other way round.
    return orientation && orientation >= 5 ? { width: height, height: width } : { width, height };
  } catch {
    return undefined;
  }
}

async function metadataOf(
  bytes: Uint8Array,
  gps: boolean,
  notes: string[],
): Promise<{ meta: Meta; tags: Record<string, unknown> | undefined }> {
  const meta: Meta = [];
  let tags: Record<string, unknown> | undefined;
  try {
    tags = (await exifr.parse(bytes, {
      reviveValues: false,
      translateValues: true,
      xmp: true,
      iptc: true,
      mergeOutput: true,
    })) as Record<string, unknown> | undefined;
  } catch {
    tags = undefined;
  }
  const size = (await sizeOf(bytes)) ?? {
    width: Number(tags?.['ExifImageWidth'] ?? tags?.['ImageWidth'] ?? 0),
    height: Number(tags?.['ExifImageHeight'] ?? tags?.['ImageHeight'] ?? 0),
  };
  if (size.width > 0 && size.height > 0)
    meta.push(['Size', `${size.width} × ${size.height} pixels`]);
  if (!tags) return { meta, tags };
  const taken = exifDate(tags['DateTimeOriginal'] ?? tags['CreateDate'] ?? tags['DateCreated']);
  if (taken) meta.push(['Taken', taken]);
  const make = plain(tags['Make']);
  const model = plain(tags['Model']);
  const camera = make && model && !model.startsWith(make) ? `${make} ${model}` : (model ?? make);
  if (camera) meta.push(['Camera', camera]);
  const lens = plain(tags['LensModel']);
  if (lens) meta.push(['Lens', lens]);
  const title = plain(tags['title'] ?? tags['ObjectName']);
  if (title) meta.push(['Title', title]);
  const description = plain(tags['ImageDescription'] ?? tags['description'] ?? tags['Caption']);
  if (description && description !== title) meta.push(['Description', description]);
  const author = plain(tags['Artist'] ?? tags['creator'] ?? tags['By-line']);
  if (author) meta.push(['Author', author]);
  const latitude = tags['latitude'];
  const longitude = tags['longitude'];
  if (typeof latitude === 'number' && typeof longitude === 'number') {
    if (gps) meta.push(['GPS', `${latitude.toFixed(5)}, ${longitude.toFixed(5)}`]);
    else notes.push('The photo records where it was taken (GPS); ask for GPS to include it.');
  }
  return { meta, tags };
}

/** Reads an image's metadata and, unless `options.ocr` is false, the text in it. */
export async function extract(input: ExtractInput): Promise<ExtractedDocument> {
  const format = formatOf(input.bytes);
  if (!format) {
    throw new DocumentError(
      'malformed',
      `${input.name} is not an image Cogito can read (not JPEG, PNG, WebP, TIFF, GIF, AVIF or HEIC by its first bytes).`,
    );
  }
  const notes: string[] = [];
  const { meta, tags } = await metadataOf(input.bytes, input.options.gps === true, notes);
  meta.unshift(['Format', format]);
  const units: (DocumentUnit & { number: number })[] = [];
  if (input.options.ocr === false) {
    notes.push('OCR was turned off: the text in the image was not read.');
  } else if (format === 'HEIC') {
    notes.push(
      'HEIC pixels cannot be decoded here (no HEVC codec), so the text in the photo was not read.',
    );
  } else {
    try {
      const text = (await recognise(input.bytes)).slice(0, input.limits.maxChars);
      if (text.length > 0)
        units.push({ number: 1, title: 'Text in the image', markdown: text, source: 'ocr' });
      else notes.push('No text was found in the image.');
    } catch (error) {
      if (error instanceof OcrUnavailable) notes.push(error.message);
      else if (!tags) {
        throw new DocumentError(
          'malformed',
          `${input.name} looks like ${format} but could not be decoded (${error instanceof Error ? error.message : String(error)}); it may be truncated or damaged.`,
        );
      } else
        notes.push(
          `The picture could not be decoded, so its text was not read (${String(error)}).`,
        );
    }
  }
  return {
    kind: 'image',
    label: `${format} image`,
    meta,
    unitName: 'part',
    unitCount: units.length,
    units,
    notes,
  };
}
