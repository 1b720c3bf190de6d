/**
 * send: Enter on a typed message → the request arriving at the scripted server (its body
 * read in full). Covers the key handling, the machine transition, persisting the message,
 * building the request (system prompt, history, token counts) and the HTTP call.
 */
import { fromPerf } from './lib/clock.js';
import { mainFor, type Bench, type BenchResult } from './lib/report.js';
import { jitter, ms, sleep, summarize } from './lib/stats.js';
import { startTui } from './lib/tui.js';

export const send: Bench = {
  name: 'send',
  async run({ quick }): Promise<BenchResult> {
    const samples = quick ? 10 : 50;
    const tui = await startTui();
    const { app, server } = tui;
    server.setDefault({ kind: 'stream', content: 'Noted. [WAIT]' });
    const latencies: number[] = [];
    try {
      await tui.waitForText('Your turn', 0, 20_000);
      await server.waitForRequest(0);
      await sleep(500);
      // One more than counted: the first message after start is reported on its own.
      for (let i = 0; i <= samples; i++) {
        const text = `message number ${i + 1}`;
        const typedAt = await app.send(text);
        await tui.waitForText(`› ${text}`, typedAt, 10_000);
        await sleep(jitter(30, 120));
        const before = server.requests.length;
        const pressed = await app.send('\r');
        const req = await server.waitForRequest(before, 10_000);
        latencies.push(fromPerf(req.receivedAt) - pressed);
        const last = (req.body.messages as { content: string }[]).at(-1);
        if (last?.content !== text) throw new Error(`request ${before} did not carry "${text}"`);
        // Back to listening before the next message.
        await tui.waitForText('Your turn', fromPerf(req.receivedAt), 10_000);
      }
    } finally {
      await tui.close();
    }
    const first = latencies.shift()!;
    const s = summarize(latencies);
    return {
      name: 'send',
      title: `send (${samples} messages)`,
      metrics: [
        {
          name: 'Enter → request arrives at the server',
          value: `p50 ${ms(s.p50)}, p99 ${ms(s.p99)}`,
          raw: s.p99,
          target: '≤ 20 ms',
          met: s.p99 <= 20,
        },
        {
          name: 'first message after start (not in the percentiles)',
          value: ms(first),
          raw: first,
        },
      ],
      notes: [
        'The p99 is compared with the target. Each message is typed as one paste, then Enter is pressed 30–120 ms later; the reply ends in [WAIT], so every message starts from AWAITING_INPUT.',
        'The history grows by two messages per sample (from 1 to about 100 messages).',
      ],
      details: { latencyMs: latencies, firstAfterStartMs: first, summary: s },
    };
  },
};

await mainFor(send, import.meta.url);
