import { describe, expect, it } from 'vitest';
import { extract } from '../../src/documents/image.js';
import { failure, fixtureInput, textInput } from './fixtures.js';

describe('image metadata', () => {
  it('gives format, size, date taken, camera and description, and hides GPS unless asked', async () => {
    const doc = await extract(await fixtureInput('camera-exif.jpg', { ocr: false }));
    expect(doc.label).toBe('JPEG image');
    expect(doc.meta).toEqual([
      ['Format', 'JPEG'],
      ['Size', '320 × 240 pixels'],
      ['Taken', '2024-07-14 18:32:05'],
      ['Camera', 'Canon EOS R6'],
      ['Description', 'Evening by the harbour'],
    ]);
    expect(JSON.stringify(doc)).not.toMatch(/59\.3|18\.06/);
    expect(doc.notes.join(' ')).toContain('GPS');
  });

  it('gives GPS coordinates when asked', async () => {
    const doc = await extract(await fixtureInput('camera-exif.jpg', { ocr: false, gps: true }));
    expect(doc.meta).toContainEqual(['GPS', '59.32930, 18.06860']);
  });

  it('refuses bytes that are no image, naming the file', async () => {
    const error = await failure(extract(textInput('notes.png', 'just some text, not a picture')));
    expect(error.kind).toBe('malformed');
    expect(error.message).toMatch(/^notes\.png is not an image/);
  });
});
