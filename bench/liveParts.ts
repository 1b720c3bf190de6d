/**
 * The reply pane's parse of a streaming reply: before, every frame parsed the whole reply so
 * far; now the turn's reader (src/protocol/streamingParts.ts) parses only what follows the
 * last settled paragraph. Streams a long reply (prose paragraphs, Chinese and English, a
 * tool call every few paragraphs) in deltas, one read per delta (a frame at most reads once),
 * and counts the characters parsed and the time, both ways.
 *
 *   npx tsx bench/liveParts.ts          # writes bench/results/liveParts.json
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseReply } from '../src/protocol/parser.js';
import { StreamingParts } from '../src/protocol/streamingParts.js';

const PARA = [
  'The draft has three sections; the second repeats the first in other words. ',
  '这一段说明了为什么第二部分需要重写，以及应该保留哪些内容。',
  'A list follows:\n- one `item`\n- another item with *emphasis*\n',
];
function reply(chars: number): string {
  let s = '';
  for (let i = 0; s.length < chars; i++) {
    s += PARA[i % PARA.length]!.repeat(3) + '\n\n';
    if (i % 7 === 6) s += `[TOOL] read("notes/${i}.md") [/TOOL]\n\n`;
  }
  return s;
}

function run(chars: number, delta: number) {
  const text = reply(chars);
  let full = 0;
  let t0 = performance.now();
  for (let end = delta; end < text.length + delta; end += delta) {
    const part = text.slice(0, end);
    parseReply(part);
    full += part.length;
  }
  const fullMs = performance.now() - t0;
  const reader = new StreamingParts();
  let maxRead = 0;
  t0 = performance.now();
  for (let end = delta; end < text.length + delta; end += delta) {
    const before = reader.parsedChars;
    reader.read(text.slice(0, end));
    maxRead = Math.max(maxRead, reader.parsedChars - before);
  }
  const liveMs = performance.now() - t0;
  const reads = Math.ceil(text.length / delta);
  return {
    replyChars: text.length,
    deltaChars: delta,
    reads,
    fullParse: {
      charsParsed: full,
      ms: Math.round(fullMs),
      perReadChars: Math.round(full / reads),
    },
    incremental: {
      charsParsed: reader.parsedChars,
      ms: Math.round(liveMs),
      perReadChars: Math.round(reader.parsedChars / reads),
      maxReadChars: maxRead,
    },
  };
}

const results = [run(20_000, 64), run(100_000, 256), run(200_000, 512)];
console.table(
  results.map((r) => ({
    reply: r.replyChars,
    delta: r.deltaChars,
    'full: chars/read': r.fullParse.perReadChars,
    'full: ms': r.fullParse.ms,
    'reader: chars/read': r.incremental.perReadChars,
    'reader: max chars/read': r.incremental.maxReadChars,
    'reader: ms': r.incremental.ms,
  })),
);
const out = {
  name: 'liveParts',
  command: 'npx tsx bench/liveParts.ts',
  machine: {
    cpu: os.cpus()[0]?.model,
    cores: os.cpus().length,
    node: process.version,
    load: os.loadavg()[0],
  },
  date: new Date().toISOString(),
  results,
};
writeFileSync(
  path.join(import.meta.dirname, 'results', 'liveParts.json'),
  JSON.stringify(out, null, 2) + '\n',
);
