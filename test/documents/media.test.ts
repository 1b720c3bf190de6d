import { describe, expect, it } from 'vitest';
import { extract, formatDuration } from '../../src/documents/media.js';
import { failure, fixtureInput, textInput } from './fixtures.js';

describe('audio and video tags', () => {
  it('reads an MP3’s tags and duration', async () => {
    const doc = await extract(await fixtureInput('song-tags.mp3'));
    expect(doc.kind).toBe('audio');
    expect(doc.meta).toEqual(
      expect.arrayContaining([
        ['Title', 'Harbour Lights'],
        ['Artist', 'The Quay Singers'],
        ['Album', 'Songs of the North Sea'],
        ['Year', '2019'],
        ['Genre', 'Folk'],
        ['Duration', '0:03'],
      ]),
    );
  });

  it('reads a video’s title and duration, as a video', async () => {
    const doc = await extract(await fixtureInput('clip-tags.mp4'));
    expect(doc.kind).toBe('video');
    expect(doc.meta).toEqual(
      expect.arrayContaining([
        ['Title', 'Quay at Dusk'],
        ['Artist', 'Harbour Film Club'],
        ['Duration', '0:02'],
      ]),
    );
  });

  it('refuses bytes that are no media file, naming the file', async () => {
    const error = await failure(extract(textInput('song.mp3', 'plain words')));
    expect(error.kind).toBe('malformed');
    expect(error.message).toMatch(/^song\.mp3 is not a readable audio or video file/);
  });

  it('formats durations as m:ss and h:mm:ss', () => {
    expect(formatDuration(3.03)).toBe('0:03');
    expect(formatDuration(3725)).toBe('1:02:05');
  });
});
