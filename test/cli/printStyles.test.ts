/**
 * Every reply style of the protocol corpus through the real program: `cogito -p` against the
 * scripted server, one scripted reply per style. What the model was sent back after each
 * reply (the `[RESULT call] ok|error` blocks of the next request) is counted per style and
 * compared with the corpus; the table is printed with the test output.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultHeadOf } from '../../src/protocol/callText.js';
import { parseReply } from '../../src/protocol/parser.js';
import { PROTOCOL_CORPUS, type Reading } from '../fixtures/protocol-corpus.js';
import { runCogito } from '../helpers/cogitoProcess.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';

interface SentBack {
  call: string;
  ok: boolean;
  body: string;
}

/** The results sent back after `reply`: the user messages after it in the first request holding it. */
function sentBackAfter(server: ScriptedServer, reply: string): SentBack[] | undefined {
  for (const request of server.requests) {
    const messages = (request.body as { messages: { role: string; content: string }[] }).messages;
    const at = messages.findIndex(
      (m) => m.role === 'assistant' && m.content.trim() === reply.trim(),
    );
    if (at === -1) continue;
    const after: SentBack[] = [];
    for (const m of messages.slice(at + 1)) {
      if (m.role === 'assistant') break;
      for (const block of m.content.split(/^(?=\[RESULT )/m)) {
        const head = /^\[RESULT (.*)\] (ok|error)$/m.exec(block);
        if (head) after.push({ call: head[1]!, ok: head[2] === 'ok', body: block });
      }
    }
    return after;
  }
  return undefined;
}

/** A search word unlike any other one, so no two separator replies look alike. */
function separator(k: number): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  return Array.from({ length: 24 }, (_, j) => letters[(k * 7 + j * j * 13 + k * j) % 26]).join('');
}

/** The call as a result's header names it: a long argument is cut there (resultHeadOf). */
function headOf(call: string): string {
  const [item] = parseReply(`[TOOL] ${call} [/TOOL]`).items;
  return item ? resultHeadOf(item) : call;
}

function describeReadings(readings: readonly Reading[]): string {
  if (readings.length === 0) return 'text';
  const calls = readings.filter((r) => 'call' in r).length;
  const errors = readings.length - calls;
  return [calls > 0 ? `${calls} run` : '', errors > 0 ? `${errors} error` : '']
    .filter(Boolean)
    .join(' + ');
}

describe('the protocol corpus through cogito -p', () => {
  let server: ScriptedServer;
  let ws: string;
  let home: string;

  beforeAll(async () => {
    server = await startScriptedServer();
    ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-styles-ws-'));
    home = await mkdtemp(path.join(os.tmpdir(), 'cogito-styles-home-'));
    await writeFile(path.join(ws, 'notes.md'), '# Notes\nTODO: buy tea\n');
    await writeFile(path.join(ws, '笔记.md'), '买茶\n');
    // Every scripted reply but the last calls a tool, so the whole run is one tool chain:
    // room for all of its steps.
    await writeFile(path.join(home, 'config.json'), JSON.stringify({ maxStepsPerTurn: 500 }));
  });
  afterAll(async () => {
    await server.close();
    await rm(ws, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  // One process runs all the styles in order: ~55 requests through the real program.
  it('each style is run, answered or left as text, as the corpus says', async () => {
    // Between two styles, a different call: the loop guard pauses a run after the same call
    // three times in a row, and most styles call read("notes.md").
    server.push(
      ...PROTOCOL_CORPUS.flatMap((e, k) => [
        { kind: 'stream' as const, content: e.reply },
        { kind: 'stream' as const, content: `Next. [TOOL] grep("${separator(k)}") [/TOOL]` },
      ]),
      { kind: 'stream', content: 'All done. [WAIT]' },
    );
    const run = runCogito(
      [
        '-p',
        'read my notes',
        '--workspace',
        ws,
        '--home',
        home,
        '--think-interval',
        '0',
        '--max-cycles',
        '500',
      ],
      { COGITO_API_KEY: 'sk-test', COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' },
    );
    expect(await run.code, run.stderr()).toBe(0);

    const rows: string[] = [];
    const wrong: string[] = [];
    let ran = 0;
    for (const entry of PROTOCOL_CORPUS) {
      const back = sentBackAfter(server, entry.reply);
      const got: Reading[] = (back ?? []).map((b) => (b.ok ? { call: b.call } : { error: b.body }));
      const match =
        back !== undefined &&
        got.length === entry.expect.length &&
        entry.expect.every((want, k) => {
          const have = got[k];
          if (have === undefined) return false;
          if ('call' in want)
            return 'call' in have && (have.call === want.call || have.call === headOf(want.call));
          return 'error' in have && have.error.includes(want.error);
        });
      const seen = back === undefined ? 'never sent' : describeReadings(got);
      if (got.some((r) => 'call' in r)) ran += 1;
      rows.push(
        `| ${entry.style.replace(/\|/g, '\\|')} | ${describeReadings(entry.expect)} | ${seen} | ${match ? 'yes' : 'NO'} |`,
      );
      if (!match) wrong.push(`${entry.style}: ${JSON.stringify(got).slice(0, 400)}`);
    }
    const table = [
      '| style | corpus | through -p | same |',
      '|---|---|---|---|',
      ...rows,
      `${PROTOCOL_CORPUS.length} styles; ${PROTOCOL_CORPUS.length - wrong.length} as in the corpus; ${ran} ran a call.`,
    ].join('\n');
    console.log(table);
    expect(wrong).toEqual([]);

    // A call read from another form is run and logged in canonical form, and the model is
    // told the form to use.
    const qwen = PROTOCOL_CORPUS.find((e) => e.style === 'Qwen <tool_call>')!;
    const [result] = sentBackAfter(server, qwen.reply) ?? [];
    expect(result?.body).toContain('read as [TOOL] read("notes.md") [/TOOL], the form to use');
    expect(result?.body).toContain('TODO: buy tea');
    expect(run.stderr()).toContain('✓ read("notes.md", null, 5)');
    expect(run.stderr()).not.toMatch(/[✓✗] read\(path=/);
  }, 240_000);
});
