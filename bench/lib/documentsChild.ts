/**
 * The document bench's measured process: extracts each file with Cogito's own extractor (the
 * code the extraction worker runs), writes the text beside it and prints the times as JSON.
 * Run under `/usr/bin/time` by bench/documents.ts, so its peak memory is the kernel's figure.
 *
 *   tsx bench/lib/documentsChild.ts <pdf|image> <outDir> <file>...
 *
 * Each file is extracted twice: the first run pays the one-time loads (pdf.js, the OCR
 * models), the second is the steady state a long-lived worker sees.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EXTRACTORS } from '../../src/documents/formats.js';
import { DEFAULT_LIMITS, type ExtractedDocument } from '../../src/documents/types.js';

const [kind, outDir, ...files] = process.argv.slice(2);
if ((kind !== 'pdf' && kind !== 'image') || !outDir) {
  process.stderr.write('usage: documentsChild.ts <pdf|image> <outDir> <file>...\n');
  process.exit(2);
}
const loader = EXTRACTORS[kind];
if (!loader) throw new Error(`no extractor for ${kind}`);
const { extract } = await loader();

const timings: { file: string; firstMs: number; warmMs: number; units: number }[] = [];
for (const file of files) {
  const bytes = await readFile(file);
  const input = {
    bytes,
    name: path.basename(file),
    options: {},
    limits: { ...DEFAULT_LIMITS, maxChars: 50_000_000 },
  };
  let doc: ExtractedDocument | undefined;
  const times: number[] = [];
  for (let run = 0; run < 2; run++) {
    const started = performance.now();
    doc = await extract(input);
    times.push(performance.now() - started);
  }
  const text = (doc?.units ?? []).map((unit) => unit.markdown).join('\n\n');
  await writeFile(path.join(outDir, `${path.basename(file)}.cogito.txt`), text);
  timings.push({
    file,
    firstMs: times[0] ?? NaN,
    warmMs: times[1] ?? NaN,
    units: doc?.units.length ?? 0,
  });
}
process.stdout.write(`${JSON.stringify(timings)}\n`);
