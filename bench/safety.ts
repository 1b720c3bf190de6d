/**
 * safety: hostile input handled in bounded time, with an interrupt honoured throughout.
 * - a 2 MB page of 200,000 nested `<div>`s fetched from a loopback server through the real
 *   fetchPage (egress guard, pinned connection, depth cap, parser): time to the result, and
 *   how late an abort fired right after the page was sent is honoured;
 * - a reply of 200,000 `[TOOL] ` tags through the agent's parse (capped at 25 calls): time,
 *   and how late a timer (a key, a SIGTERM handler) set at a random moment of the parse runs.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseReply, parseReplyYielding } from '../src/protocol/parser.js';
import { createWebTools } from '../src/tools/web/index.js';
import type { Tool } from '../src/tools/types.js';
import { mainFor, type Bench, type BenchResult, type Metric } from './lib/report.js';
import { jitter, ms, summarize, type Summary } from './lib/stats.js';

const DEPTH = 200_000;
const NESTED = `<html><body>${'<div>'.repeat(DEPTH)}deep text${'</div>'.repeat(DEPTH)}</body></html>`;
const TAGS = '[TOOL] '.repeat(200_000);

function metric(name: string, s: Summary, limit: number, stat: 'max' | 'p99' = 'max'): Metric {
  return {
    name,
    value: `p50 ${ms(s.p50)}, max ${ms(s.max)} (n=${s.n})`,
    raw: s[stat],
    target: `< ${limit} ms`,
    met: s[stat] < limit,
  };
}

async function withPageServer<T>(
  body: (url: string, onSent: (f: () => void) => void) => Promise<T>,
): Promise<T> {
  let sent: (() => void) | undefined;
  const server = http.createServer((_req, res) => {
    res.on('finish', () => sent?.());
    res.writeHead(200, { 'content-type': 'text/html' }).end(NESTED);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await body(`http://127.0.0.1:${port}`, (f) => (sent = f));
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

async function nestedPage(n: number): Promise<{ done: number[]; late: number[] }> {
  return withPageServer(async (url, onSent) => {
    const port = new URL(url).port;
    const tool: Tool = createWebTools({ fetch: { allowHosts: [`127.0.0.1:${port}`] } }).find(
      (t) => t.name === 'fetchPage',
    )!;
    const ctx = (signal: AbortSignal) => ({ workspace: {} as never, signal });
    await tool.run([`${url}/warm`], ctx(new AbortController().signal));
    const done: number[] = [];
    const late: number[] = [];
    for (let i = 0; i < n; i++) {
      onSent(() => undefined);
      const t = performance.now();
      const r = await tool.run([`${url}/p${i}`], ctx(new AbortController().signal));
      if (!r.ok) throw new Error(`fetchPage failed: ${r.error.message}`);
      done.push(performance.now() - t);
      const turn = new AbortController();
      let abortedAt = 0;
      onSent(() =>
        setImmediate(() => {
          abortedAt = performance.now();
          turn.abort();
        }),
      );
      const a = await tool.run([`${url}/a${i}`], ctx(turn.signal));
      if (a.ok || a.error.kind !== 'aborted') throw new Error('the abort was not honoured');
      late.push(performance.now() - abortedAt);
    }
    return { done, late };
  });
}

async function tagReply(n: number): Promise<{ done: number[]; late: number[]; full: number }> {
  const done: number[] = [];
  const late: number[] = [];
  await parseReplyYielding(TAGS, undefined, 25); // warm-up
  for (let i = 0; i < n; i++) {
    let firedLate = -1;
    // A key arriving at a random moment of the parse.
    const at = jitter(0, 60);
    const set = performance.now();
    const timer = setTimeout(() => {
      firedLate = performance.now() - set - at;
    }, at);
    const t = performance.now();
    const parsed = await parseReplyYielding(TAGS, undefined, 25);
    done.push(performance.now() - t);
    if (parsed?.moreCalls !== 200_000 - 25) throw new Error('unexpected parse');
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, at)));
    clearTimeout(timer);
    if (firedLate >= 0) late.push(Math.max(0, firedLate));
  }
  const t = performance.now();
  parseReply(TAGS);
  return { done, late, full: performance.now() - t };
}

export const safety: Bench = {
  name: 'safety',
  async run(opts): Promise<BenchResult> {
    const n = opts.quick ? 5 : 20;
    const page = await nestedPage(n);
    const tags = await tagReply(n);
    const pageDone = summarize(page.done);
    const pageLate = summarize(page.late);
    const tagDone = summarize(tags.done);
    const tagLate = summarize(tags.late);
    return {
      name: 'safety',
      title: 'safety (hostile page and reply)',
      metrics: [
        metric('2 MB nested-div page → fetchPage result', pageDone, 1000),
        metric('abort while the page is processed → honoured', pageLate, 50),
        metric('200,000-tag reply → parsed (25 calls kept)', tagDone, 1000),
        metric('key during that parse → handled', tagLate, 50),
        {
          name: '200,000-tag reply, every call parsed (not capped, sync)',
          value: ms(tags.full),
          raw: tags.full,
        },
      ],
      details: { page, tags },
      notes: [
        'The page server runs in the bench process, so its 2.2 MB write counts against the same event loop.',
      ],
    };
  },
};

await mainFor(safety, import.meta.url);
