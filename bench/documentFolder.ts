/**
 * documents: reading a folder of documents.
 * - grep over 200 mixed documents made from test/fixtures/documents (each a distinct file:
 *   text kinds get a line of their own, PDFs trailing bytes; ZIP-based formats are copied
 *   as they are, so their copies share one extraction through the content hash), with a
 *   fresh cache, then again: the second grep must extract nothing and take under 1 s;
 * - the screen's echo while a long extraction runs (a 15 MB HTML page read through the
 *   extraction process): keystroke → on screen, the same measure as bench/echo.ts.
 */
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { mainFor, type Bench, type BenchResult } from './lib/report.js';
import { jitter, ms, sleep, summarize } from './lib/stats.js';
import { ROOT, startTui, type Tui } from './lib/tui.js';
import { createDocumentReader, createGrepTool } from '../src/tools/files/index.js';
import { extractionPool } from '../src/documents/pool.js';
import { Workspace } from '../src/tools/workspace.js';
import { binaryByName } from '../src/tools/files/read.js';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'documents');
const FOLDER_SIZE = 200;

/** 200 distinct documents made from the fixtures, round robin. */
async function makeFolder(dir: string): Promise<string[]> {
  const names = (await readdir(FIXTURES)).filter((n) => !n.endsWith('.expect')).sort();
  const made: string[] = [];
  for (let i = 0; i < FOLDER_SIZE; i++) {
    const source = names[i % names.length]!;
    const ext = path.extname(source);
    const target = path.join(
      dir,
      `doc${String(i).padStart(3, '0')}-${path.basename(source, ext)}${ext}`,
    );
    const bytes = await readFile(path.join(FIXTURES, source));
    if (ext === '.pdf') {
      // Bytes after %%EOF are ignored by PDF readers: a distinct file, the same document.
      await writeFile(target, Buffer.concat([bytes, Buffer.from(`\n% copy ${i}\n`)]));
    } else if (!binaryByName(source)) {
      const suffix = `\ncopy ${i}\n`;
      const encoded = source.includes('utf16le')
        ? Buffer.from(suffix, 'utf16le')
        : Buffer.from(suffix);
      await writeFile(target, Buffer.concat([bytes, encoded]));
    } else {
      await copyFile(path.join(FIXTURES, source), target);
    }
    made.push(target);
  }
  return made;
}

async function grepTimes(quick: boolean): Promise<{
  first: number;
  second: number;
  extracted: [number, number];
  matches: string;
  kinds: Record<string, number>;
}> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'cogito-bench-docs-'));
  try {
    const ws = path.join(base, 'ws');
    await mkdir(ws, { recursive: true });
    const files = await makeFolder(ws);
    const kinds: Record<string, number> = {};
    for (const f of files) kinds[path.extname(f)] = (kinds[path.extname(f)] ?? 0) + 1;
    const documents = createDocumentReader(path.join(base, 'home', 'cache'));
    const grep = createGrepTool({ documents });
    const ctx = { workspace: await Workspace.open(ws), signal: new AbortController().signal };
    const pool = extractionPool();
    const time = async (): Promise<{ ms: number; data: string }> => {
      const t0 = performance.now();
      // Matches nowhere, so every file is searched (grep stops at 200 matches).
      const r = await grep.run(['no such phrase anywhere', '.'], ctx);
      const took = performance.now() - t0;
      return { ms: took, data: r.ok ? String(r.data) : JSON.stringify(r) };
    };
    const e0 = pool.extractions;
    const first = await time();
    const e1 = pool.extractions;
    let second = await time();
    if (!quick) second = await time().then((b) => (b.ms < second.ms ? b : second));
    const e2 = pool.extractions;
    pool.stop();
    return {
      first: first.ms,
      second: second.ms,
      extracted: [e1 - e0, e2 - e1],
      matches: first.data.split('\n')[0] ?? '',
      kinds,
    };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

const LETTERS = 'ABCDEFHIJKLMNPRSTUVWXYZ';

/** A big page: 15 MB of sections, paragraphs, lists and tables. */
function bigHtml(): string {
  const section = (i: number): string =>
    `<h2>Section ${i}</h2><p>${'Paragraph text about the quarterly figures and the plans for next year. '.repeat(12)}</p>` +
    `<ul><li>item ${i}a</li><li>item ${i}b</li></ul><table><tr><th>k</th><th>v</th></tr><tr><td>${i}</td><td>${i * 2}</td></tr></table>`;
  const parts: string[] = ['<!doctype html><html><head><title>Big</title></head><body><article>'];
  let size = 0;
  for (let i = 0; size < 15 * 1024 * 1024; i++) {
    const s = section(i);
    parts.push(s);
    size += s.length;
  }
  parts.push('</article></body></html>');
  return parts.join('');
}

async function echoDuringExtraction(samples: number): Promise<number[]> {
  const html = bigHtml();
  const tui: Tui = await startTui({
    args: ['--paused'],
    prepare: (home) => writeFile(path.join(home.workspace, 'big.html'), html),
  });
  try {
    tui.server.push(
      { kind: 'stream', content: 'Reading it.\n[TOOL] read("big.html") [/TOOL]' },
      { kind: 'stream', content: 'Done.' },
    );
    await tui.waitForText('Paused', 0, 30_000);
    await tui.app.send('go');
    await sleep(100);
    await tui.app.send('\r');
    const deadline = Date.now() + 30_000;
    while (tui.server.requests.length < 1 && Date.now() < deadline) await sleep(20);
    await sleep(500);
    const out: number[] = [];
    let typed = '';
    for (let i = 0; i < samples; i++) {
      if (typed.length >= 12) {
        await tui.app.send('\x15');
        typed = '';
        await sleep(100);
      }
      await sleep(jitter(20, 80));
      const ch = LETTERS[Math.floor(Math.random() * LETTERS.length)]!;
      typed += ch;
      const pressed = await tui.app.send(ch);
      const shown = await tui.waitForText(`› ${typed}`, pressed, 10_000);
      out.push(shown - pressed);
    }
    if (tui.server.requests.length > 1) {
      throw new Error('the extraction finished before the typing did: make the page bigger');
    }
    return out;
  } finally {
    await tui.close();
  }
}

export const documentFolder: Bench = {
  name: 'documentFolder',
  async run({ quick }): Promise<BenchResult> {
    const g = await grepTimes(quick);
    const samples = quick ? 15 : 40;
    const echo = await echoDuringExtraction(samples + 1);
    const firstKey = echo.shift()!;
    const s = summarize(echo);
    return {
      name: 'documentFolder',
      title: `documents: grep over ${FOLDER_SIZE} documents, echo during a long extraction`,
      metrics: [
        {
          name: `first grep, ${FOLDER_SIZE} documents (fresh cache)`,
          value: ms(g.first),
          raw: g.first,
        },
        {
          name: 'second grep (cached)',
          value: ms(g.second),
          raw: g.second,
          target: '< 1 s',
          met: g.second < 1000,
        },
        {
          name: 'extractions: first grep / second grep',
          value: `${g.extracted[0]} / ${g.extracted[1]}`,
          target: 'second: 0',
          met: g.extracted[1] === 0,
        },
        {
          name: 'keystroke → on screen, during a 15 MB HTML extraction',
          value: `p50 ${ms(s.p50)}, p99 ${ms(s.p99)}`,
          raw: s.p99,
          target: '≤ 10 ms (echo.json: p99 5.8 ms idle, 20.2 ms streaming)',
          met: s.p99 <= 10,
        },
      ],
      notes: [
        'grep runs in-process through the grep tool with a document reader whose cache is in a fresh temporary home; the pattern matches nowhere, so every file is searched.',
        'The folder is the fixtures of test/fixtures/documents copied round robin; text and PDF copies are made distinct, ZIP-based ones are byte copies (found by content hash after the first).',
        `Kinds in the folder: ${JSON.stringify(g.kinds)}; first result line: ${g.matches}`,
        'Echo: started with --paused, a message asks for read("big.html"); the keys are typed while the extraction process reads the page (checked: the model had not yet been sent its result when the last key was shown).',
      ],
      details: {
        grep: g,
        echoMs: echo,
        firstKeyMs: firstKey,
        echoSummary: s,
      },
    };
  },
};

await mainFor(documentFolder, import.meta.url);
