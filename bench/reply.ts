/**
 * bytes per streamed reply: the real full-screen app (runTui → createApp → Ink) in this
 * process, drawing into a 120×40 stand-in terminal, while the scripted server streams the
 * standard reply: 200 chunks of Markdown (headings, lists, a table, code, prose). Counts what
 * reaches the terminal from the first chunk to the saved reply: bytes, frames, erase-line
 * sequences, full-screen clears, and frames not wrapped in synchronized-output markers.
 */
import { EventEmitter } from 'node:events';
import { FakeStderr, FakeStdin } from '../test/helpers/fakeTerminal.js';
import type { AgentEvent } from '../src/api/events.js';
import { makeHome } from './lib/appEnv.js';
import { CountingStdout } from './lib/frameMeter.js';
import { mainFor, type Bench, type BenchResult } from './lib/report.js';
import { bytes } from './lib/stats.js';
import { startWorkerServer } from './lib/workerServer.js';

const COLUMNS = 120;
const ROWS = 40;
const BSU = '\x1b[?2026h';
const ESU = '\x1b[?2026l';

/** The standard reply: `n` chunks of a Markdown answer, cycling through its parts. */
export function markdownChunks(n: number): string[] {
  const parts = [
    '## Findings\n\n',
    'The **supplier** report ',
    'mentions a delivery date ',
    'that is `unclear`, so ',
    'I checked the notes again.\n\n',
    '- budget: 预算 ',
    'approved\n- meeting: 会议 ',
    'on Friday\n\n',
    '| item | qty |\n|---|--:|\n',
    '| paper | 12 |\n| 墨水 | 3 |\n\n',
    '```ts\nconst total = ',
    'items.length;\n```\n\n',
  ];
  return Array.from({ length: n }, (_, i) => parts[i % parts.length]!);
}

function forgetCi(): void {
  for (const k of Object.keys(process.env)) {
    if (k === 'CI' || k === 'CONTINUOUS_INTEGRATION' || k.startsWith('CI_')) delete process.env[k];
  }
}

export const reply: Bench = {
  name: 'reply',
  async run({ quick }): Promise<BenchResult> {
    const CHUNKS = 200;
    const ROUNDS = quick ? 1 : 3;
    forgetCi();
    const { runTui } = await import('../components/runTui.js');
    const { createApp } = await import('../src/app/createApp.js');
    const { parseCliArgs } = await import('../src/cli/args.js');
    const samples: {
      bytes: number;
      frames: number;
      eraseLines: number;
      clears: number;
      unwrapped: number;
    }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const server = await startWorkerServer();
      server.push({ kind: 'stream', content: markdownChunks(CHUNKS), chunkDelayMs: 10 });
      server.setDefault({ kind: 'stream', content: 'Done. [WAIT]' });
      const home = makeHome(server.url, { maxAutonomousCycles: 0 });
      const stdout = new CountingStdout(COLUMNS, ROWS);
      const texts: { t: number; text: string }[] = [];
      stdout.onWrite = (text) => texts.push({ t: performance.now(), text });
      const proc = new EventEmitter();
      let first: number | undefined;
      let end: number | undefined;
      let onDone!: () => void;
      const done = new Promise<void>((r) => (onDone = r));
      const onEvent = (e: AgentEvent): void => {
        if (e.type === 'message_update') first ??= performance.now();
        if (e.type === 'message_added' && e.message.role === 'assistant' && end === undefined) {
          end = performance.now();
          onDone();
        }
      };
      try {
        const exited = runTui(parseCliArgs(['--workspace', home.workspace]), {
          stdin: new FakeStdin() as unknown as NodeJS.ReadStream,
          stdout: stdout as unknown as NodeJS.WriteStream,
          stderr: new FakeStderr() as unknown as NodeJS.WritableStream,
          env: home.env(),
          proc,
          createApp: async (opts) => {
            const made = await createApp(opts);
            if (made.ok) made.app.agent.subscribe(onEvent);
            return made;
          },
        });
        const timeout = setTimeout(onDone, 60_000);
        await done;
        clearTimeout(timeout);
        // The frame that shows the saved reply belongs to it too.
        await new Promise((r) => setTimeout(r, 100));
        const stop = performance.now();
        proc.emit('SIGTERM');
        await exited;
        if (first === undefined) throw new Error('the reply never streamed');
        samples.push(measure(texts.filter((w) => w.t >= first! && w.t <= stop).map((w) => w.text)));
      } finally {
        await server.close();
        home.cleanup();
      }
    }
    const median = (xs: number[]): number => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const b = median(samples.map((s) => s.bytes));
    const clears = Math.max(...samples.map((s) => s.clears));
    const unwrapped = Math.max(...samples.map((s) => s.unwrapped));
    return {
      name: 'reply',
      title: `bytes per streamed reply (${CHUNKS} chunks of Markdown, ${COLUMNS}×${ROWS}, ${ROUNDS} rounds)`,
      metrics: [
        {
          name: 'bytes written per reply (median)',
          value: bytes(b),
          raw: b,
          target: '≤ 250 KB',
          met: b <= 250_000,
        },
        { name: 'frames per reply (median)', value: String(median(samples.map((s) => s.frames))) },
        {
          name: 'bytes per frame (median over rounds)',
          value: bytes(median(samples.map((s) => s.bytes / Math.max(1, s.frames)))),
        },
        {
          name: 'erase-line sequences per reply (median)',
          value: String(median(samples.map((s) => s.eraseLines))),
        },
        {
          name: 'full-screen clears while streaming',
          value: String(clears),
          raw: clears,
          target: '= 0',
          met: clears === 0,
        },
        {
          name: 'frames outside synchronized-output markers',
          value: String(unwrapped),
          raw: unwrapped,
          target: '= 0',
          met: unwrapped === 0,
        },
      ],
      notes: [
        'In process: the counting terminal sees every write Ink makes; a frame is one write between `\\x1b[?2026h` and `\\x1b[?2026l`.',
      ],
      details: { samples },
    };
  },
};

/** Counts over the writes of one reply. */
function measure(writes: readonly string[]): {
  bytes: number;
  frames: number;
  eraseLines: number;
  clears: number;
  unwrapped: number;
} {
  let total = 0;
  let frames = 0;
  let eraseLines = 0;
  let clears = 0;
  let unwrapped = 0;
  let open = false;
  for (const w of writes) {
    total += Buffer.byteLength(w);
    if (w === BSU) open = true;
    else if (w === ESU) open = false;
    else if (w.length > 0) {
      frames += 1;
      // Markers as writes of their own around it (Ink's way) or inside the same write (ours).
      if (!open && !(w.startsWith(BSU) && w.endsWith(ESU))) unwrapped += 1;
    }
    eraseLines += w.split('\x1b[2K').length - 1;
    if (w.includes('\x1b[2J') || w.includes('\x1b[3J') || w.includes('\x1bc')) clears += 1;
  }
  return { bytes: total, frames, eraseLines, clears, unwrapped };
}

await mainFor(reply, import.meta.url);
