/**
 * nativeCalls: what one conversation costs per request with `toolCalls: "text"` (the `[TOOL]`
 * protocol and the tool lines in the system prompt) and with `toolCalls: "native"` (the tools
 * as JSON schemas, calls as `tool_calls`, results as `tool` messages).
 *
 * The real program (`cogito -p`, bin/cogito.js) against the scripted server, the same
 * four-request conversation in both modes: read a file, list the folder, read it again, then
 * answer; the model writes its calls in the mode's own form. Each request the server received
 * is measured as sent: its body's bytes, and its tokens counted with gpt-tokenizer (o200k, the
 * counter Cogito uses): the messages' text (content, and each call's name and arguments) plus
 * the tools' JSON. A server's chat template wraps both in its own tokens, so the counts compare
 * the modes, not a given model's bill. Run: npx tsx bench/nativeCalls.ts
 */
import { spawn } from 'node:child_process';
import { encode } from 'gpt-tokenizer';
import { COGITO, makeHome } from './lib/appEnv.js';
import { mainFor, type Bench, type BenchResult, type Metric } from './lib/report.js';
import {
  startScriptedServer,
  type RecordedRequest,
  type Step,
} from '../test/helpers/scriptedServer.js';

type Mode = 'text' | 'native';

interface WireMessage {
  content?: string | null;
  tool_calls?: { function: { name: string; arguments: string } }[];
}

/** The same conversation in each mode's own form of a call. */
function script(mode: Mode): Step[] {
  const call = (id: string, name: string, args: Record<string, string>, text: string): Step =>
    mode === 'native'
      ? { kind: 'stream', toolCalls: [{ id, name, arguments: JSON.stringify(args) }] }
      : { kind: 'stream', content: text };
  return [
    call('call_1', 'read', { path: 'notes.txt' }, '[TOOL] read("notes.txt") [/TOOL]'),
    call('call_2', 'ls', { path: '.' }, '[TOOL] ls(".") [/TOOL]'),
    call('call_3', 'read', { path: 'notes.txt' }, '[TOOL] read("notes.txt") [/TOOL]'),
    { kind: 'stream', content: 'The folder holds one note: "a note". [WAIT]' },
  ];
}

/** One request as sent: its bytes and its tokens (messages' text plus the tools' JSON). */
function measure(r: RecordedRequest): { bytes: number; tokens: number; toolTokens: number } {
  const body = r.body as { messages: WireMessage[]; tools?: unknown };
  const text = body.messages
    .map((m) =>
      [
        m.content ?? '',
        ...(m.tool_calls ?? []).map((c) => `${c.function.name}${c.function.arguments}`),
      ].join('\n'),
    )
    .join('\n');
  const toolTokens = body.tools === undefined ? 0 : encode(JSON.stringify(body.tools)).length;
  return {
    bytes: Buffer.byteLength(JSON.stringify(r.body)),
    tokens: encode(text).length + toolTokens,
    toolTokens,
  };
}

async function conversation(mode: Mode): Promise<ReturnType<typeof measure>[]> {
  const server = await startScriptedServer();
  const home = makeHome(server.url, { toolCalls: mode, thinkIntervalMs: 30_000 });
  try {
    server.push(...script(mode));
    const child = spawn(COGITO[0]!, [COGITO[1]!, '-p', 'What is in my notes?'], {
      cwd: home.workspace,
      env: home.env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    if (code !== 0) throw new Error(`cogito -p exited ${String(code)}: ${err}`);
    if (server.requests.length !== 4) {
      throw new Error(`${mode}: expected 4 requests, got ${server.requests.length}`);
    }
    return server.requests.map(measure);
  } finally {
    await server.close();
    home.cleanup();
  }
}

export const nativeCalls: Bench = {
  name: 'nativeCalls',
  async run(): Promise<BenchResult> {
    const text = await conversation('text');
    const native = await conversation('native');
    const metrics: Metric[] = [];
    const row = (name: string, pick: (m: ReturnType<typeof measure>) => number, unit: string) => {
      const t = text.map(pick);
      const n = native.map(pick);
      metrics.push({
        name: `${name}, text / native`,
        value: `${t.join(' · ')} / ${n.join(' · ')} ${unit}`,
        raw:
          n.reduce((a, b) => a + b, 0) /
          Math.max(
            1,
            t.reduce((a, b) => a + b, 0),
          ),
      });
    };
    row('tokens per request (4 requests)', (m) => m.tokens, 'tokens');
    row('bytes per request (4 requests)', (m) => m.bytes, 'bytes');
    const growth = (ms: ReturnType<typeof measure>[]): number =>
      Math.round((ms.at(-1)!.tokens - ms[0]!.tokens) / (ms.length - 1));
    metrics.push({
      name: 'tokens added per step (a call and its result), text / native',
      value: `${growth(text)} / ${growth(native)} tokens`,
      raw: growth(native) - growth(text),
    });
    const sum = (ms: ReturnType<typeof measure>[]): number => ms.reduce((a, m) => a + m.tokens, 0);
    metrics.push({
      name: 'prompt tokens of the whole conversation, text / native',
      value: `${sum(text)} / ${sum(native)} (native ${Math.round((100 * sum(native)) / sum(text))} % of text)`,
      raw: sum(native) / sum(text),
    });
    metrics.push({
      name: 'of which the tools as JSON schemas (native, per request)',
      value: `${native[0]!.toolTokens} tokens`,
      raw: native[0]!.toolTokens,
    });
    return {
      name: 'nativeCalls',
      title: 'text vs native tool calls: request size per turn',
      metrics,
      details: { text, native },
      notes: [
        'The same 4-request conversation (read, ls, read, answer) through cogito -p, each mode writing calls in its own form.',
        "Tokens: gpt-tokenizer o200k over the messages' text (content, call names and arguments) plus the tools' JSON; a chat template adds its own tokens in both modes.",
      ],
    };
  },
};

await mainFor(nativeCalls, import.meta.url);
