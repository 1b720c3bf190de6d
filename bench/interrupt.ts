/**
 * interrupt: a key pressed while the agent streams a reply. Two latencies per sample, from
 * the moment the key is written to the terminal:
 * - until the scripted server sees the HTTP connection closed (the request is really aborted);
 * - until the status bar shows "Your turn" (AWAITING_INPUT) in the bytes the app writes.
 * Each sample then sends the typed key as a message (Enter), which starts the next stream.
 */
import { startScriptedServer } from '../test/helpers/scriptedServer.js';
import { fromPerf } from './lib/clock.js';
import { mainFor, type Bench, type BenchResult } from './lib/report.js';
import { jitter, ms, sleep, summarize } from './lib/stats.js';
import { ATTACHED, startTui } from './lib/tui.js';

/** A long, slow reply: ~50 chunks a second for a minute, so it is always mid-stream. */
const SLOW = {
  kind: 'stream',
  content: Array.from({ length: 3000 }, (_, i) => `word${i} `),
  chunkDelayMs: 20,
} as const;

export const interrupt: Bench = {
  name: 'interrupt',
  async run({ quick }): Promise<BenchResult> {
    const samples = quick ? 10 : 50;
    // The slow reply is set before anything starts: a background agent asks at once.
    const server = await startScriptedServer();
    server.setDefault({ ...SLOW, content: [...SLOW.content] });
    const tui = await startTui({ config: { maxAutonomousCycles: 0 }, attached: ATTACHED, server });
    const { app } = tui;
    const toClose: number[] = [];
    const toStatus: number[] = [];
    try {
      // One more than counted: the first interrupt after start is reported on its own.
      for (let i = 0; i <= samples; i++) {
        // Request i streams (the first is autonomous, the rest answer the typed key).
        const req = await server.waitForRequest(i, 20_000);
        // An attached screen may join the first stream long after it began: any word will do.
        const label = ATTACHED && i === 0 ? 'word' : 'word3 ';
        await tui.waitForText(label, fromPerf(req.receivedAt), 20_000);
        // A random moment mid-stream, so the key does not land in step with the frame timer.
        await sleep(jitter(60, 260));
        const key = String.fromCharCode(97 + (i % 26));
        const pressed = await app.send(key);
        const closed = await server.waitForClose(i, 10_000);
        const shown = await tui.waitForText('Your turn', pressed, 10_000);
        toClose.push(fromPerf(closed.closedAt!) - pressed);
        toStatus.push(shown - pressed);
        await sleep(jitter(20, 60));
        await app.send('\r');
      }
    } finally {
      await tui.close();
      await server.close();
    }
    const firstClose = toClose.shift()!;
    const firstStatus = toStatus.shift()!;
    const close = summarize(toClose);
    const status = summarize(toStatus);
    return {
      name: ATTACHED ? 'interrupt-attached' : 'interrupt',
      title: `interrupt (${samples} samples)${ATTACHED ? ', screen attached to a background agent' : ''}`,
      metrics: [
        {
          name: 'keypress → server sees connection closed',
          value: `p50 ${ms(close.p50)}, p99 ${ms(close.p99)}`,
          raw: close.p99,
          target: 'p50 ≤ 10 ms, p99 ≤ 20 ms',
          met: close.p50 <= 10 && close.p99 <= 20,
        },
        {
          name: 'keypress → status shows "Your turn"',
          value: `p50 ${ms(status.p50)}, p99 ${ms(status.p99)}`,
          raw: status.p99,
          target: 'p99 ≤ 20 ms',
          met: status.p99 <= 20,
        },
        {
          name: 'first interrupt after start (not in the percentiles)',
          value: `close ${ms(firstClose)}, status ${ms(firstStatus)}`,
          raw: firstStatus,
        },
      ],
      notes: [
        'Times are CLOCK_MONOTONIC: the key is timestamped by the pty helper just before it writes it, the close by the scripted server in this process, the screen by the pty helper as it reads the bytes.',
        'The reply streams at ~50 chunks/s; each key is pressed at a random moment 60–260 ms after streaming started.',
        'The first interrupt after start is shown on its own row: it can land while the app still loads (the tokenizer loads in the background on the main thread).',
        ...(ATTACHED
          ? [
              'Attached (npx tsx bench/interrupt.ts --attached): the key travels screen → socket → background agent, which aborts the request; the status comes back as an event.',
            ]
          : []),
      ],
      details: {
        toCloseMs: toClose,
        toStatusMs: toStatus,
        firstAfterStart: { closeMs: firstClose, statusMs: firstStatus },
        summaries: { close, status },
      },
    };
  },
};

await mainFor(interrupt, import.meta.url);
