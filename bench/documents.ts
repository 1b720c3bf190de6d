/**
 * documents: Cogito's PDF text and OCR against the tools people use for this, on the same files.
 *
 * - PDF text: real PDFs shipped in Debian's documentation folders (pdfTeX, Apache FOP and
 *   Quartz producers; nobody here wrote them) plus the committed LibreOffice fixture, read by
 *   `pdftotext` (poppler) and by Cogito's extractor. Accuracy is the share of pdftotext's words
 *   (as a multiset) that Cogito's text also has; goal ≥ 98 %.
 * - Speed: seconds per file, Cogito's extractor warm (as the long-lived extraction worker
 *   runs) against a `pdftotext` process per file; goal ≤ 3 ×. The cold first run is shown too.
 * - OCR: pages of those PDFs rendered to 150 dpi greyscale JPEGs by `pdftoppm` (scans with
 *   a known text: the page's own text layer), and a photo of a Chinese and English sign,
 *   read by `tesseract` (eng, or chi_sim+eng for the sign) and by Cogito's OCR. Word accuracy
 *   is the share of the true words found; goal within 5 points of tesseract. Chinese is
 *   counted a character at a time.
 * - Peak memory of each, from `/usr/bin/time -f %M`.
 *
 *   npx tsx bench/documents.ts          # all (~5 minutes on 2 cores)
 *   npx tsx bench/documents.ts --quick  # the small PDFs, 4 OCR pages; writes results/tmp/
 *   npx tsx bench/documents.ts --only=ocr  # the OCR part alone (~2 minutes); results/tmp/
 *
 * Installs poppler-utils, tesseract-ocr (+ chi-sim) and time with apt-get when missing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ROOT } from './lib/appEnv.js';
import { mainFor, type Bench, type BenchResult, type Metric } from './lib/report.js';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'documents');

/** Real PDFs from Debian packages' documentation, used when present. */
const DEBIAN_PDFS = [
  '/usr/share/doc/zlib1g-dev/crc-doc.1.0.pdf.gz',
  '/usr/share/doc/nettle-dev/nettle.pdf.gz',
  '/usr/share/doc/fontconfig/fontconfig-user.pdf.gz',
  '/usr/share/doc/libtasn1-doc/libtasn1.pdf',
  '/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf',
  '/usr/share/doc/bzip2/manual.pdf.gz',
  '/usr/share/doc/libimage-exiftool-perl/html/MIE1.1-20070121.pdf',
  '/usr/share/doc/valgrind/valgrind_manual.pdf.gz',
];
/** Left out of --quick: hundreds of pages. */
const BIG = ['valgrind_manual.pdf', 'nettle.pdf'];

/** The sign photo's true text (the fixture script draws these lines). */
const SIGN_TRUTH = [
  '欢迎来到上海图书馆',
  'Welcome to the Shanghai Library',
  '开放时间：上午九点至晚上八点',
  'Opening hours: 9am to 8pm daily',
].join('\n');

function has(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

/** Installs the oracles with apt-get when missing (the bench runs as root on Debian). */
function ensureTools(): void {
  const missing: string[] = [];
  if (!has('pdftotext', ['-v'])) missing.push('poppler-utils');
  const langs = spawnSync('tesseract', ['--list-langs'], { encoding: 'utf8' });
  if (langs.status !== 0)
    missing.push('tesseract-ocr', 'tesseract-ocr-eng', 'tesseract-ocr-chi-sim');
  else if (!/chi_sim/.test(langs.stdout)) missing.push('tesseract-ocr-chi-sim');
  if (!fs.existsSync('/usr/bin/time')) missing.push('time');
  if (missing.length === 0) return;
  process.stdout.write(`installing ${missing.join(' ')} with apt-get…\n`);
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', ...missing], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

interface Timed {
  seconds: number;
  peakKb: number;
  stdout: string;
}

/** Runs a command under GNU time: wall seconds and peak resident memory. */
function timed(command: string, args: string[]): Timed {
  const marker = '@@time';
  const result = spawnSync('/usr/bin/time', ['-f', `${marker} %e %M`, command, ...args], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const line = result.stderr.split('\n').find((l) => l.startsWith(marker));
  if (result.status !== 0 || !line) {
    throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr.slice(-2000)}`);
  }
  const [, seconds, peak] = line.split(' ');
  return { seconds: Number(seconds), peakKb: Number(peak), stdout: result.stdout };
}

/** Words for comparison: Latin/digit runs lower-cased, CJK one character each. */
export function words(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/\p{Script=Han}|[^\P{L}\p{Script=Han}]+|\p{N}+/gu) ?? []
  );
}

/** How many of `truth`'s words (as a multiset) `candidate` also has, as a share. */
export function recall(truth: readonly string[], candidate: readonly string[]): number {
  if (truth.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const word of candidate) counts.set(word, (counts.get(word) ?? 0) + 1);
  let found = 0;
  for (const word of truth) {
    const left = counts.get(word) ?? 0;
    if (left > 0) {
      found++;
      counts.set(word, left - 1);
    }
  }
  return found / truth.length;
}

function cogito(
  kind: 'pdf' | 'image',
  outDir: string,
  files: string[],
): {
  rows: { file: string; firstMs: number; warmMs: number; units: number }[];
  seconds: number;
  peakKb: number;
} {
  const run = timed(process.execPath, [
    '--import',
    'tsx',
    path.join(ROOT, 'bench', 'lib', 'documentsChild.ts'),
    kind,
    outDir,
    ...files,
  ]);
  const last = run.stdout.trim().split('\n').at(-1) ?? '[]';
  return { rows: JSON.parse(last) as never, seconds: run.seconds, peakKb: run.peakKb };
}

const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
const mbOf = (kb: number): string => `${(kb / 1024).toFixed(0)} MB`;

function collectPdfs(dir: string, quick: boolean): string[] {
  const files: string[] = [];
  for (const source of DEBIAN_PDFS) {
    if (!fs.existsSync(source)) continue;
    const name = path.basename(source).replace(/\.gz$/, '');
    if (quick && BIG.includes(name)) continue;
    const target = path.join(dir, name);
    const bytes = fs.readFileSync(source);
    fs.writeFileSync(target, source.endsWith('.gz') ? gunzipSync(bytes) : bytes);
    files.push(target);
  }
  const fixture = path.join(dir, 'harbour-report.pdf');
  fs.copyFileSync(path.join(FIXTURES, 'harbour-report.pdf'), fixture);
  files.push(fixture);
  return files;
}

function pagesOf(file: string): number {
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? 0);
}

interface PdfRow {
  file: string;
  pages: number;
  pdftotextWords: number;
  cogitoWords: number;
  recallOfPdftotext: number;
  precision: number;
  pdftotextSeconds: number;
  cogitoWarmSeconds: number;
  cogitoFirstSeconds: number;
}

/** PDF text and speed: pdftotext against Cogito's extractor on the same files. */
function pdfSection(
  dir: string,
  pdfs: readonly string[],
  pages: readonly number[],
): { metrics: Metric[]; perFile: PdfRow[] } {
  const poppler = pdfs.map((file) => {
    const out = `${file}.pdftotext.txt`;
    const runs = [0, 1, 2].map(() => timed('pdftotext', ['-enc', 'UTF-8', file, out]));
    const seconds = runs.map((r) => r.seconds).sort((a, b) => a - b)[1] ?? NaN;
    return {
      seconds,
      peakKb: Math.max(...runs.map((r) => r.peakKb)),
      text: fs.readFileSync(out, 'utf8'),
    };
  });
  const ours = cogito('pdf', dir, [...pdfs]);
  const perFile = pdfs.map((file, i) => {
    const theirs = words(poppler[i]!.text);
    const mine = words(fs.readFileSync(`${file}.cogito.txt`, 'utf8'));
    return {
      file: path.basename(file),
      pages: pages[i]!,
      pdftotextWords: theirs.length,
      cogitoWords: mine.length,
      recallOfPdftotext: recall(theirs, mine),
      precision: recall(mine, theirs),
      pdftotextSeconds: poppler[i]!.seconds,
      cogitoWarmSeconds: ours.rows[i]!.warmMs / 1000,
      cogitoFirstSeconds: ours.rows[i]!.firstMs / 1000,
    };
  });
  const totalPages = sum([...pages]);
  const allTheirs = sum(perFile.map((f) => f.pdftotextWords));
  const textRecall = sum(perFile.map((f) => f.recallOfPdftotext * f.pdftotextWords)) / allTheirs;
  const popplerSeconds = sum(perFile.map((f) => f.pdftotextSeconds));
  const warmSeconds = sum(perFile.map((f) => f.cogitoWarmSeconds));
  const firstSeconds = sum(perFile.map((f) => f.cogitoFirstSeconds));
  const speedRatio = warmSeconds / popplerSeconds;
  const metrics: Metric[] = [
    {
      name: `PDF corpus`,
      value: `${pdfs.length} files, ${totalPages} pages, ${allTheirs} pdftotext words`,
    },
    {
      name: 'PDF text: pdftotext words Cogito also gives',
      value: pct(textRecall),
      raw: textRecall,
      target: '≥ 98 %',
      met: textRecall >= 0.98,
    },
    {
      name: 'PDF time, pdftotext (a process per file)',
      value: `${popplerSeconds.toFixed(2)} s (${(totalPages / popplerSeconds).toFixed(0)} pages/s)`,
      raw: popplerSeconds,
    },
    {
      name: 'PDF time, Cogito warm',
      value: `${warmSeconds.toFixed(2)} s (${(totalPages / warmSeconds).toFixed(0)} pages/s)`,
      raw: warmSeconds,
    },
    {
      name: 'PDF time, Cogito / pdftotext',
      value: `${speedRatio.toFixed(2)} ×`,
      raw: speedRatio,
      target: '≤ 3 ×',
      met: speedRatio <= 3,
    },
    {
      name: 'PDF time, Cogito first run (loads pdf.js)',
      value: `${firstSeconds.toFixed(2)} s`,
      raw: firstSeconds,
    },
    {
      name: 'PDF peak memory, pdftotext / Cogito process',
      value: `${mbOf(Math.max(...poppler.map((p) => p.peakKb)))} / ${mbOf(ours.peakKb)}`,
      raw: ours.peakKb,
    },
  ];
  return { metrics, perFile };
}

/** How many of the most often missed words each OCR row lists. */
const MISSED_SHOWN = 40;

/** The true words `candidate` lacks (as multisets), most often missed first. */
export function missedWords(truth: readonly string[], candidate: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const word of candidate) counts.set(word, (counts.get(word) ?? 0) + 1);
  const missed = new Map<string, number>();
  for (const word of truth) {
    const left = counts.get(word) ?? 0;
    if (left > 0) counts.set(word, left - 1);
    else missed.set(word, (missed.get(word) ?? 0) + 1);
  }
  return [...missed]
    .sort((a, b) => b[1] - a[1])
    .map(([word, n]) => (n > 1 ? `${word} ×${n}` : word));
}

/** OCR: pages of the PDFs rendered as scans, and the sign, read by tesseract and by Cogito. */
function ocrSection(
  dir: string,
  sources: readonly { file: string; pages: number }[],
): { metrics: Metric[]; rows: unknown[] } {
  const ocrDir = path.join(dir, 'ocr');
  fs.mkdirSync(ocrDir);
  const ocrPages: { image: string; truth: string; lang: string }[] = [];
  for (const source of sources) {
    const file = path.join(dir, source.file);
    for (const page of [1, 2].slice(0, Math.min(2, source.pages))) {
      const base = path.join(ocrDir, `${source.file}-p${page}`);
      execFileSync('pdftoppm', [
        '-r',
        '150',
        '-gray',
        '-jpeg',
        '-f',
        String(page),
        '-l',
        String(page),
        '-singlefile',
        file,
        base,
      ]);
      const truth = execFileSync(
        'pdftotext',
        ['-enc', 'UTF-8', '-f', String(page), '-l', String(page), file, '-'],
        { encoding: 'utf8' },
      );
      if (words(truth).length < 20) continue;
      ocrPages.push({ image: `${base}.jpg`, truth, lang: 'eng' });
    }
  }
  const sign = path.join(ocrDir, 'sign-zh-en.jpg');
  fs.copyFileSync(path.join(FIXTURES, 'sign-zh-en.jpg'), sign);
  ocrPages.push({ image: sign, truth: SIGN_TRUTH, lang: 'chi_sim+eng' });
  const tess = ocrPages.map((p) => timed('tesseract', [p.image, '-', '-l', p.lang]));
  const ourOcr = cogito(
    'image',
    ocrDir,
    ocrPages.map((p) => p.image),
  );
  const ocrRows = ocrPages.map((p, i) => {
    const truth = words(p.truth);
    const theirs = words(tess[i]!.stdout);
    const mine = words(fs.readFileSync(`${p.image}.cogito.txt`, 'utf8'));
    return {
      image: path.basename(p.image),
      lang: p.lang,
      truthWords: truth.length,
      tesseract: recall(truth, theirs),
      cogito: recall(truth, mine),
      tesseractSeconds: tess[i]!.seconds,
      cogitoWarmSeconds: ourOcr.rows[i]!.warmMs / 1000,
      cogitoMissed: missedWords(truth, mine).slice(0, MISSED_SHOWN),
      tesseractMissed: missedWords(truth, theirs).slice(0, MISSED_SHOWN),
    };
  });
  const weighted = (key: 'tesseract' | 'cogito', rows: typeof ocrRows): number =>
    sum(rows.map((r) => r[key] * r.truthWords)) / sum(rows.map((r) => r.truthWords));
  const english = ocrRows.filter((r) => r.lang === 'eng');
  const chinese = ocrRows.filter((r) => r.lang !== 'eng');
  const ocrTess = weighted('tesseract', ocrRows);
  const ocrOurs = weighted('cogito', ocrRows);
  const tessPerPage = sum(ocrRows.map((r) => r.tesseractSeconds)) / ocrRows.length;
  const oursPerPage = sum(ocrRows.map((r) => r.cogitoWarmSeconds)) / ocrRows.length;
  const metrics: Metric[] = [
    {
      name: `OCR word accuracy, tesseract / Cogito (${ocrRows.length} images)`,
      value: `${pct(ocrTess)} / ${pct(ocrOurs)}`,
      raw: ocrOurs - ocrTess,
      target: 'Cogito ≥ tesseract − 5 points',
      met: ocrOurs >= ocrTess - 0.05,
    },
    {
      name: `OCR English pages (${english.length}), tesseract / Cogito`,
      value: `${pct(weighted('tesseract', english))} / ${pct(weighted('cogito', english))}`,
    },
    {
      name: 'OCR Chinese + English sign, tesseract / Cogito',
      value: `${pct(weighted('tesseract', chinese))} / ${pct(weighted('cogito', chinese))}`,
    },
    {
      name: 'OCR seconds per image, tesseract / Cogito warm',
      value: `${tessPerPage.toFixed(2)} s / ${oursPerPage.toFixed(2)} s`,
      raw: oursPerPage,
    },
    {
      name: 'OCR peak memory, tesseract / Cogito process',
      value: `${mbOf(Math.max(...tess.map((t) => t.peakKb)))} / ${mbOf(ourOcr.peakKb)}`,
      raw: ourOcr.peakKb,
    },
  ];
  return { metrics, rows: ocrRows };
}

export const documents: Bench = {
  name: 'documents',
  async run({ quick, only }): Promise<BenchResult> {
    if (only !== undefined && only !== 'ocr') {
      throw new Error(`--only=${only}: the documents bench has one part to run alone, --only=ocr`);
    }
    ensureTools();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-bench-documents-'));
    try {
      const pdfs = collectPdfs(dir, quick);
      const pages = pdfs.map(pagesOf);
      const pdf = only === 'ocr' ? undefined : pdfSection(dir, pdfs, pages);
      const sources = pdfs
        .map((file, i) => ({ file: path.basename(file), pages: pages[i]! }))
        .filter((f) => !BIG.includes(f.file))
        .slice(0, quick ? 2 : 6);
      const ocr = ocrSection(dir, sources);
      return {
        name: 'documents',
        title: 'documents (PDF text and OCR vs pdftotext and tesseract)',
        metrics: [...(pdf?.metrics ?? []), ...ocr.metrics],
        notes: [
          'Accuracy counts words as multisets (order ignored): Latin and digit runs lower-cased, Chinese one character at a time.',
          "Cogito is timed in-process, warm, as its long-lived extraction worker runs; pdftotext as a process per file (median of 3). Cogito's process peak includes Node and tsx.",
          "OCR truth is each page's own text layer (pdftotext of the original), the sign's the lines it was drawn with; tesseract gets the right language (eng, or chi_sim+eng for the sign).",
          'Each OCR row lists the true words Cogito and tesseract missed (most often missed first, at most 40).',
        ],
        details: {
          ...(pdf ? { pdf: pdf.perFile } : {}),
          ocr: ocr.rows,
          pdftotextVersion: spawnSync('pdftotext', ['-v'], { encoding: 'utf8' }).stderr.split(
            '\n',
          )[0],
          tesseractVersion: spawnSync('tesseract', ['--version'], {
            encoding: 'utf8',
          }).stdout.split('\n')[0],
        },
      };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};

await mainFor(documents, import.meta.url);
