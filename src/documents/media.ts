/**
 * Audio and video files (MP3, M4A/MP4, FLAC, Ogg, WAV, MKV/WebM, …): their tags (title,
 * artist, album, year, genre…) and duration, read by music-metadata from the bytes without
 * decoding any sound or picture. Lyrics and comments, when tagged, are the one unit of text.
 */
import { parseBuffer } from 'music-metadata';
import {
  DocumentError,
  type DocumentUnit,
  type ExtractedDocument,
  type ExtractInput,
} from './types.js';

/** Seconds as `m:ss` or `h:mm:ss`. */
export function formatDuration(seconds: number): string {
  const whole = Math.round(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

function joined(values: readonly unknown[] | undefined): string | undefined {
  const text = (values ?? [])
    .map((value) => (typeof value === 'string' ? value : ''))
    .filter((value) => value.trim().length > 0)
    .join(', ');
  return text || undefined;
}

/** Reads a media file's tags and duration. */
export async function extract(input: ExtractInput): Promise<ExtractedDocument> {
  let parsed: Awaited<ReturnType<typeof parseBuffer>>;
  try {
    parsed = await parseBuffer(input.bytes, undefined, { duration: true, skipCovers: true });
  } catch (error) {
    throw new DocumentError(
      'malformed',
      `${input.name} is not a readable audio or video file (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  const { format, common } = parsed;
  const video = format.hasVideo === true;
  const meta: (readonly [string, string])[] = [];
  const add = (label: string, value: string | number | undefined | null): void => {
    if (value !== undefined && value !== null && String(value).trim() !== '') {
      meta.push([label, String(value).trim()]);
    }
  };
  add('Title', common.title);
  add('Artist', common.artist ?? joined(common.artists));
  add('Album', common.album);
  add('Album artist', common.albumartist);
  add('Year', common.year);
  add('Genre', joined(common.genre));
  add('Composer', joined(common.composer));
  if (common.track.no)
    add('Track', common.track.of ? `${common.track.no} of ${common.track.of}` : common.track.no);
  add('Duration', format.duration !== undefined ? formatDuration(format.duration) : undefined);
  add('Format', [format.container, format.codec].filter(Boolean).join(', '));
  if (format.bitrate) add('Bitrate', `${Math.round(format.bitrate / 1000)} kbit/s`);
  if (format.sampleRate) add('Sample rate', `${format.sampleRate} Hz`);
  const notes: string[] = [];
  if (format.duration === undefined)
    notes.push('The duration could not be determined from the file.');
  const text = [
    ...(common.lyrics ?? []).map((lyrics) =>
      typeof lyrics === 'string' ? lyrics : (lyrics.text ?? ''),
    ),
    ...(common.comment ?? []).map((comment) =>
      typeof comment === 'string' ? comment : (comment.text ?? ''),
    ),
  ]
    .filter((part) => part.trim().length > 0)
    .join('\n\n')
    .slice(0, input.limits.maxChars);
  const units: (DocumentUnit & { number: number })[] =
    text.length > 0 ? [{ number: 1, title: 'Lyrics and comments', markdown: text }] : [];
  return {
    kind: video ? 'video' : 'audio',
    label: video ? 'Video' : 'Audio',
    meta,
    unitName: 'part',
    unitCount: units.length,
    units,
    notes,
  };
}
