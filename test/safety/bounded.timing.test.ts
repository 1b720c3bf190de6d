/**
 * Bounded work under hostile input, timed: a 2 MB page of 200,000 nested `<div>`s and a
 * reply of 200,000 `[TOOL] ` tags are each handled in under a second, and an interrupt
 * arriving while they are processed is handled within 50 ms (the event loop is never held
 * longer than that). Timing tests: under heavy CPU load, re-run this file alone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createWebTools } from '../../src/tools/web/index.js';
import { parseReplyYielding } from '../../src/protocol/parser.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { waitForStore } from '../helpers/waitFor.js';
import { okText, startServer, testContext, type TestServer } from '../tools/web/helpers.js';

const DEPTH = 200_000;
const NESTED = `<html><body>${'<div>'.repeat(DEPTH)}deep text${'</div>'.repeat(DEPTH)}</body></html>`;
const TAGS = '[TOOL] '.repeat(200_000);

/** Records the longest time the event loop went without running a 1 ms interval. */
function loopWatch(): { stop(): number } {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 1);
  return {
    stop: () => {
      clearInterval(timer);
      return worst;
    },
  };
}

let server: TestServer | undefined;
let h: Harness | undefined;
afterEach(async () => {
  await server?.close();
  await h?.dispose();
  server = undefined;
  h = undefined;
});

describe('a 2 MB page of 200,000 nested divs', () => {
  let sent: (() => void) | undefined;
  const page = async (): Promise<ReturnType<typeof createWebTools>[number]> => {
    server = await startServer((_req, res) => {
      res.on('finish', () => sent?.());
      res.writeHead(200, { 'content-type': 'text/html' }).end(NESTED);
    });
    const fetchPage = createWebTools({ fetch: { allowPrivateNetwork: true } }).find(
      (t) => t.name === 'fetchPage',
    )!;
    // Warm the lazily loaded parser so the timing is the page's, not the import's.
    await fetchPage.run([`${server.url}/warm`], testContext());
    return fetchPage;
  };

  it('is read in under 1 s, flattened, with the text kept', async () => {
    const fetchPage = await page();
    const started = performance.now();
    const text = okText(await fetchPage.run([`${server!.url}/deep`], testContext()));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(text).toContain('deep text');
    expect(text).toContain('the deeper part was flattened');
  });

  it('an interrupt while it is processed ends the call within 50 ms', async () => {
    const fetchPage = await page();
    const turn = new AbortController();
    let abortedAt = 0;
    sent = () =>
      setImmediate(() => {
        abortedAt = performance.now();
        turn.abort();
      });
    const result = await fetchPage.run([`${server!.url}/deep`], testContext(turn.signal));
    const lateness = performance.now() - abortedAt;
    expect(result.ok ? 'ok' : result.error.kind).toBe('aborted');
    expect(lateness).toBeLessThan(50);
  });
});

describe('a reply of 200,000 [TOOL] tags', () => {
  it('parses in under 1 s without holding the event loop 50 ms', async () => {
    const watch = loopWatch();
    const started = performance.now();
    const parsed = await parseReplyYielding(TAGS, undefined, 25);
    const elapsed = performance.now() - started;
    const worstGap = watch.stop();
    expect(parsed!.items).toHaveLength(25);
    expect(parsed!.moreCalls).toBe(200_000 - 25);
    expect(elapsed).toBeLessThan(1_000);
    expect(worstGap).toBeLessThan(50);
  });

  it('an interrupt while the agent parses it lands within 50 ms and runs no call', async () => {
    h = await createHarness({ initialState: 'THINKING', settings: { contextWindow: 10_000_000 } });
    const agent = h.agent;
    let lateness = -1;
    agent.subscribe((e) => {
      // `usage` comes when the stream ends, right before the parse starts.
      if (e.type !== 'usage' || lateness >= 0) return;
      const asked = performance.now();
      setTimeout(() => {
        lateness = performance.now() - asked;
        agent.send({ type: 'interrupt' });
      }, 0);
    });
    const chunks = Array.from({ length: 14 }, () => TAGS.slice(0, TAGS.length / 14));
    h.server.push({ kind: 'stream', content: chunks });
    agent.start();
    await waitForStore(agent.store, (s) => s.machine === 'AWAITING_INPUT', 'the interrupt');
    await agent.idle();
    expect(lateness).toBeGreaterThanOrEqual(0);
    expect(lateness).toBeLessThan(50);
    expect(agent.store.getState().toolLog).toHaveLength(0);
  });
});
