/**
 * echo: a key typed into the input box → that character on screen, measured from the moment
 * the key is written to the terminal to the moment the frame holding it is read back.
 * - idle: the agent waits for the user (AWAITING_INPUT);
 * - streaming: autonomy is paused and the answer to a message streams into the reply pane
 *   while the user types the next one (the only state where typing does not interrupt).
 */
import { mainFor, type Bench, type BenchResult } from './lib/report.js';
import { jitter, ms, sleep, summarize } from './lib/stats.js';
import { ATTACHED, startTui, type Tui } from './lib/tui.js';

const LETTERS = 'ABCDEFHIJKLMNPRSTUVWXYZ';

/** Types `samples` keys one at a time and returns each key's echo latency. */
async function typeAndTime(tui: Tui, samples: number): Promise<number[]> {
  const out: number[] = [];
  let typed = '';
  for (let i = 0; i < samples; i++) {
    if (typed.length >= 12) {
      await tui.app.send('\x15'); // Ctrl+U: clear the line
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
  return out;
}

export const echo: Bench = {
  name: 'echo',
  async run({ quick }): Promise<BenchResult> {
    const samples = quick ? 15 : 50;

    const idleTui = await startTui({ attached: ATTACHED });
    let idle: number[];
    try {
      idleTui.server.setDefault({ kind: 'stream', content: 'Hello. [WAIT]' });
      await idleTui.waitForText('Your turn', 0, 20_000);
      await sleep(500);
      idle = await typeAndTime(idleTui, samples + 1);
    } finally {
      await idleTui.close();
    }

    const streamTui = await startTui({ args: ['--paused'], attached: ATTACHED });
    let streaming: number[];
    try {
      streamTui.server.setDefault({
        kind: 'stream',
        content: Array.from({ length: 6000 }, (_, i) => `word${i} `),
        chunkDelayMs: 20,
      });
      await streamTui.waitForText('Paused', 0, 20_000);
      await streamTui.app.send('go');
      await sleep(100);
      const sent = await streamTui.app.send('\r');
      await streamTui.waitForText('word3 ', sent, 20_000);
      await sleep(300);
      streaming = await typeAndTime(streamTui, samples + 1);
      // The reply must still have been streaming when the last key was typed.
      const last = streamTui.server.requests[0];
      if (!last || last.completed) throw new Error('the reply finished before the typing did');
    } finally {
      await streamTui.close();
    }

    // The first key of each run is reported apart (it can meet start-up work).
    const firstIdle = idle.shift()!;
    const firstStreaming = streaming.shift()!;
    const sIdle = summarize(idle);
    const sStream = summarize(streaming);
    const metric = (name: string, s: typeof sIdle) => ({
      name,
      value: `p50 ${ms(s.p50)}, p99 ${ms(s.p99)}`,
      raw: s.p99,
      target: '≤ 10 ms',
      met: s.p99 <= 10,
    });
    return {
      name: ATTACHED ? 'echo-attached' : 'echo',
      title: `echo (${samples} keys each)${ATTACHED ? ', screen attached to a background agent' : ''}`,
      metrics: [
        metric('keystroke → on screen, idle', sIdle),
        metric('keystroke → on screen, while streaming', sStream),
      ],
      notes: [
        'The p99 is compared with the target. Keys are typed 20–80 ms apart, one per write, as a person types.',
        'While streaming: started with --paused, a message was sent, and its ~50 chunks/s answer streams while the keys are typed.',
        ...(ATTACHED
          ? [
              'Attached (npx tsx bench/echo.ts --attached): cogito start, then the screen attaches over the socket; its input line is its own, the agent is in the other process.',
            ]
          : []),
      ],
      details: {
        idleMs: idle,
        streamingMs: streaming,
        firstKeyMs: { idle: firstIdle, streaming: firstStreaming },
        summaries: { idle: sIdle, streaming: sStream },
      },
    };
  },
};

await mainFor(echo, import.meta.url);
