import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage, HistoryMessage } from '../../src/core/messages.js';
import { TokenCounter } from '../../src/memory/tokenCounter.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import type { RecordedRequest, Step } from '../helpers/scriptedServer.js';
import { waitForStore, waitUntil } from '../helpers/waitFor.js';
import { internalsOf, changeSettings } from '../helpers/agentInternals.js';

const WINDOW = 3000;
const COMPRESS_AT = 0.7;
const SUMMARY =
  '## Files and folders discovered\n- notes/ holds the trip plans\n## Open tasks\n- tidy notes';

const isSummaryRequest = (req: RecordedRequest): boolean =>
  String(req.body.messages?.[0]?.content ?? '').startsWith('You compress');

/** A distinct, sizeable line per turn, so every message is recognisable afterwards. */
const userLine = (i: number): string =>
  `Message ${i}: ${'please look at the travel notes and the budget sheet '.repeat(6)}`;
const replyLine = (i: number): string =>
  `Reply ${i}: ${'I read the notes; the budget sheet lists hotels and trains '.repeat(6)} [WAIT]`;

async function converse(h: Harness, turns: number): Promise<void> {
  for (let i = 0; i < turns; i++) {
    const before = h.server.requests.filter((r) => !isSummaryRequest(r)).length;
    h.agent.send({ type: 'submit', text: userLine(i) });
    await waitForStore(
      h.agent.store,
      (s) =>
        s.machine === 'AWAITING_INPUT' &&
        s.messages.some((m) => m.content.startsWith(`Reply ${i}:`)),
      `reply ${i}`,
    );
    await h.agent.idle();
    expect(h.server.requests.filter((r) => !isSummaryRequest(r)).length).toBe(before + 1);
  }
}

/** A harness with real compression whose summary requests get `summary`. */
async function compacting(contextWindow: number, summary: Step): Promise<Harness> {
  const h = await createHarness({
    settings: { contextWindow },
    compaction: { compressAt: COMPRESS_AT, compressTurns: 150 },
  });
  let turn = 0;
  h.server.setDefault((req) =>
    isSummaryRequest(req) ? summary : { kind: 'stream', content: replyLine(turn++) },
  );
  return h;
}

describe('compression', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('summarises the older part once, sends summary + recent under budget, and archives every original', async () => {
    h = await compacting(WINDOW, { kind: 'stream', content: SUMMARY });
    const added: HistoryMessage[] = [];
    h.agent.subscribe((e) => {
      if (e.type === 'message_added') added.push(e.message);
    });
    h.agent.start();
    await converse(h, 12);

    const summaries = h.server.requests.filter(isSummaryRequest);
    expect(summaries.length).toBeGreaterThanOrEqual(1);
    const first = summaries[0]!;
    // The summarisation request holds the older messages, starting with the very first one.
    expect(first.body.messages[1].content).toContain(userLine(0).trim());

    // The next normal request after it carries the summary and the recent messages, under budget.
    const next = h.server.requests[first.index + 1]!;
    expect(isSummaryRequest(next)).toBe(false);
    const sent = next.body.messages as ChatMessage[];
    expect(sent.some((m) => m.content.includes(SUMMARY))).toBe(true);
    expect(sent.some((m) => m.content.includes(userLine(0).trim()))).toBe(false);
    expect(sent.at(-1)!.content).toMatch(/^Message \d+:/);
    const counter = new TokenCounter();
    await counter.preload();
    expect(counter.countChat(sent)).toBeLessThan(COMPRESS_AT * WINDOW);

    // Nothing is lost: archive + live history (without summaries) = every message ever added.
    // (A later compression archives the earlier summary too; summaries are not originals.)
    const archived = h.session.archivedMessages().filter((m) => !m.summary);
    const live = h.session.messages().filter((m) => !m.summary);
    expect([...archived, ...live]).toEqual(added);
    expect(h.session.messages()[0]!.summary).toBe(true);
    expect(h.agent.store.getState().notices.some((n) => n.text.startsWith('compressed'))).toBe(
      true,
    );
  });

  it('a failed summarisation (server 500) leaves the agent working and loses nothing', async () => {
    h = await compacting(WINDOW, { kind: 'error', status: 500 });
    const added: HistoryMessage[] = [];
    h.agent.subscribe((e) => {
      if (e.type === 'message_added') added.push(e.message);
    });
    h.agent.start();
    await converse(h, 10);
    expect(h.server.requests.some(isSummaryRequest)).toBe(true);
    expect(h.session.messages()).toEqual(added);
    expect(h.session.archivedMessages()).toEqual([]);
    expect(
      h.agent.store.getState().notices.some((n) => n.text.startsWith('could not compress')),
    ).toBe(true);
    // Requests stay within the window: older tool results and replies are left out instead.
    const counter = new TokenCounter();
    await counter.preload();
    const last = h.server.requests.filter((r) => !isSummaryRequest(r)).at(-1)!;
    expect(counter.countChat(last.body.messages)).toBeLessThan(WINDOW);
    expect(
      last.body.messages.some((m: { content: string }) => m.content.includes(userLine(0).trim())),
    ).toBe(true);
  });

  it('/compact forces a summary', async () => {
    h = await compacting(100_000, { kind: 'stream', content: SUMMARY });
    h.agent.start();
    await converse(h, 3);
    expect(h.server.requests.some(isSummaryRequest)).toBe(false);
    const before = h.session.messages().length;
    h.agent.send({ type: 'submit', text: '/compact' });
    await waitForStore(
      h.agent.store,
      (s) => s.notices.some((n) => n.text.startsWith('compressed')),
      'the compact notice',
    );
    await h.agent.idle();
    expect(h.session.messages().length).toBeLessThan(before);
    expect(h.session.messages()[0]!.summary).toBe(true);
  });
});

describe('the exact tokenizer', () => {
  it('is loaded only once the context passes a third of the window', async () => {
    const h = await createHarness({ settings: { contextWindow: 100_000 } });
    try {
      h.server.setDefault({ kind: 'stream', content: 'short [WAIT]', usage: false });
      h.agent.start();
      h.agent.send({ type: 'submit', text: 'hi' });
      await waitForStore(
        h.agent.store,
        (s) => s.machine === 'AWAITING_INPUT' && s.messages.length === 2,
        'reply',
      );
      await h.agent.idle();
      expect(internalsOf(h.agent).counter.exact).toBe(false);
      changeSettings(h.agent, { contextWindow: 3000 });
      h.agent.send({ type: 'submit', text: 'again' });
      await waitForStore(
        h.agent.store,
        (s) => s.machine === 'AWAITING_INPUT' && s.messages.length === 4,
        'reply',
      );
      await h.agent.idle();
      // The agent started the load itself; wait for it to land.
      await waitUntil(() => internalsOf(h.agent).counter.exact, 'the tokenizer to load');
    } finally {
      await h.dispose();
    }
  });
});
