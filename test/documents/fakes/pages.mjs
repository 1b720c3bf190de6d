// A stand-in PDF reader for the framework's tests: "%PDF-1.7" then pages separated by form
// feeds. The real PDF reader is another module; this one lets read, grep and the cache be
// tested on documents whatever formats this build reads.
import { Buffer } from 'node:buffer';

export async function extract(input) {
  const text = Buffer.from(input.bytes)
    .toString('utf8')
    .replace(/^%PDF-1\.7\n/, '');
  const pages = text.split('\f');
  return {
    kind: 'pdf',
    label: 'PDF',
    meta: [
      ['Title', pages[0].split('\n')[0]],
      ['Pages', String(pages.length)],
    ],
    unitName: 'page',
    unitCount: pages.length,
    units: pages.map((markdown, i) => ({ number: i + 1, title: `Page ${i + 1}`, markdown })),
    notes: [],
  };
}
