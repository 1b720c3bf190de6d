import { Buffer } from 'node:buffer';

// An extractor whose parser throws on a malformed file, as libraries do.
export async function extract(input) {
  if (input.bytes.length < 10)
    throw new TypeError('Cannot read properties of undefined (reading "xref")');
  return {
    kind: 'pdf',
    label: 'PDF',
    meta: [['Pages', '1']],
    unitName: 'page',
    unitCount: 1,
    units: [{ number: 1, title: 'Page 1', markdown: Buffer.from(input.bytes).toString('utf8') }],
    notes: [],
  };
}
