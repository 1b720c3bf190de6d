/**
 * Native function calls through the real program (`cogito -p` against the scripted server):
 * a server's `tool_calls` run like `[TOOL]` calls, in either mode, and their results go back
 * as `tool` messages after the assistant message carrying the calls; near misses are
 * answered to the model; in `toolCalls: "native"` mode the tools go as JSON schemas, the
 * prompt drops the `[TOOL]` protocol, and each request extends the one before byte for byte.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCogito } from '../helpers/cogitoProcess.js';
import {
  startScriptedServer,
  type RecordedRequest,
  type ScriptedServer,
} from '../helpers/scriptedServer.js';

interface WireMessage {
  role: string;
  content: string | null;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}
const sent = (r: RecordedRequest): WireMessage[] => r.body.messages as WireMessage[];
/** The messages after the last user message that is not a result: this turn's exchange. */
const afterPrompt = (r: RecordedRequest): WireMessage[] => {
  const all = sent(r);
  const i = all.findIndex((m) => m.role === 'assistant');
  return i === -1 ? [] : all.slice(i);
};

describe('native function calls (-p)', () => {
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  let env: Record<string, string>;
  const run = async (
    prompt: string,
    ...more: string[]
  ): Promise<{ code: number | null; out: string }> => {
    const r = runCogito(['-p', prompt, '--workspace', ws, '--home', home, ...more], env);
    const code = await r.code;
    return { code, out: r.stdout() + r.stderr() };
  };

  beforeEach(async () => {
    server = await startScriptedServer();
    ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-native-ws-'));
    home = await mkdtemp(path.join(os.tmpdir(), 'cogito-native-home-'));
    env = { COGITO_API_KEY: 'sk-test', COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' };
    await writeFile(path.join(ws, 'notes.md'), 'alpha notes\n');
    await writeFile(path.join(ws, 'b.md'), 'beta text\n');
  });
  afterEach(async () => {
    await server.close();
    await rm(ws, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it('a native read whose arguments come in many pieces runs, and its result reaches the next request as a tool message', async () => {
    server.push(
      {
        kind: 'stream',
        toolCalls: [
          { id: 'call_r1', name: 'read', arguments: ['{"pa', 'th"', ': "no', 'tes.', 'md"}'] },
        ],
      },
      { kind: 'stream', content: 'The notes say alpha. [WAIT]' },
    );
    const { code, out } = await run('read my notes');
    expect(code, out).toBe(0);
    expect(out).toContain('The notes say alpha.');
    expect(server.requests).toHaveLength(2);
    const [assistant, tool, ...rest] = afterPrompt(server.requests[1]!);
    expect(assistant).toMatchObject({
      role: 'assistant',
      tool_calls: [
        {
          id: 'call_r1',
          type: 'function',
          function: { name: 'read', arguments: '{"path": "notes.md"}' },
        },
      ],
    });
    expect(tool).toMatchObject({ role: 'tool', tool_call_id: 'call_r1' });
    expect(tool!.content).toContain('alpha notes');
    expect(rest).toEqual([]);
  });

  it('two calls in one answer, mixed with text, and a non-streamed answer: each runs and is answered by its id, in order', async () => {
    server.push(
      {
        kind: 'stream',
        content: 'I will read both files.',
        interleaveCalls: true,
        toolCalls: [
          { id: 'call_a', name: 'read', arguments: ['{"path":', ' "notes.md"}'] },
          { id: 'call_b', name: 'read', arguments: ['{"path":', ' "b.md"}'] },
        ],
      },
      {
        kind: 'stream',
        json: true,
        toolCalls: [{ id: 'call_c', name: 'ls', arguments: '{}' }],
      },
      { kind: 'stream', content: 'Both read. [WAIT]' },
    );
    const { code, out } = await run('read both', '--json');
    expect(code, out).toBe(0);
    expect(server.requests).toHaveLength(3);
    const step2 = afterPrompt(server.requests[1]!);
    expect(step2.map((m) => m.role)).toEqual(['assistant', 'tool', 'tool']);
    expect(step2[0]!.content).toBe('I will read both files.');
    expect(step2[0]!.tool_calls!.map((c) => c.id)).toEqual(['call_a', 'call_b']);
    expect(step2[1]).toMatchObject({ tool_call_id: 'call_a' });
    expect(step2[1]!.content).toContain('alpha notes');
    expect(step2[2]).toMatchObject({ tool_call_id: 'call_b' });
    expect(step2[2]!.content).toContain('beta text');
    // The non-streamed answer's call ran too (ls lists the workspace).
    const step3 = afterPrompt(server.requests[2]!);
    expect(step3.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_c' });
    expect(step3.at(-1)!.content).toContain('notes.md');
    // Saved and shown: the saved reply's call parts keep the server's ids, and the tool
    // events carry the call's own id (`<replyId>#<index>`), the server's mapped to it.
    const events = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, any>); // eslint-disable-line @typescript-eslint/no-explicit-any
    const parts = events
      .filter((e) => e['type'] === 'message_added' && e['message'].parts !== undefined)
      .flatMap((e) => e['message'].parts.items as { id: string; native?: { id: string } }[]);
    const partOf = (server: string): string => parts.find((p) => p.native?.id === server)!.id;
    const started = events.filter((e) => e['type'] === 'tool_start').map((e) => e['entry'].callId);
    expect(started.slice(0, 2)).toEqual([partOf('call_a'), partOf('call_b')]);
    expect(partOf('call_b')).toMatch(/#1$/);
  });

  it('malformed arguments, an unknown name and arguments that fit no parameter are answered to the model with the fix', async () => {
    server.push(
      {
        kind: 'stream',
        toolCalls: [
          { id: 'bad_json', name: 'read', arguments: ['{"path": "notes', '.md"'] },
          { id: 'bad_name', name: 'reed', arguments: '{"path":"notes.md"}' },
          { id: 'bad_key', name: 'read', arguments: '{"file":"notes.md"}' },
        ],
      },
      { kind: 'stream', content: 'Sorry. [WAIT]' },
    );
    const { code, out } = await run('read my notes');
    expect(code, out).toBe(0);
    const msgs = afterPrompt(server.requests[1]!);
    expect(msgs.map((m) => m.role)).toEqual(['assistant', 'tool', 'tool', 'tool']);
    // The malformed arguments go back as `{}`, so the server can render the history.
    expect(msgs[0]!.tool_calls!.map((c) => c.function.arguments)).toEqual([
      '{}',
      '{"path":"notes.md"}',
      '{"file":"notes.md"}',
    ]);
    const byId = (id: string): string => msgs.find((m) => m.tool_call_id === id)!.content ?? '';
    expect(byId('bad_json')).toMatch(
      /arguments of read are not valid JSON.*Expected: read\(\{"path"/s,
    );
    expect(byId('bad_name')).toMatch(/Unknown tool "reed"\. Did you mean read\?/);
    expect(byId('bad_key')).toMatch(/read has no parameter "file".*Expected: read\(\{"path"/s);
    for (const id of ['bad_json', 'bad_name', 'bad_key'])
      expect(byId(id)).not.toContain('alpha notes');
  });

  it('a native create is journaled like a text call: /undo takes it back', async () => {
    server.push(
      {
        kind: 'stream',
        toolCalls: [
          { id: 'w1', name: 'create', arguments: ['{"path":"plan.md",', '"content":"# Plan"}'] },
        ],
      },
      { kind: 'stream', content: 'Written. [WAIT]' },
    );
    const { code, out } = await run('write a plan');
    expect(code, out).toBe(0);
    expect(await readFile(path.join(ws, 'plan.md'), 'utf8')).toBe('# Plan');
    const [id] = await readdir(path.join(home, 'data', 'sessions'));
    const undo = await run('/undo', '--session', id!);
    expect(undo.code, undo.out).toBe(0);
    expect(existsSync(path.join(ws, 'plan.md'))).toBe(false);
  });

  it.each(['text', 'native'] as const)(
    'toolCalls "%s": what the request offers, and each request extends the one before byte for byte',
    async (mode) => {
      await writeFile(path.join(home, 'config.json'), JSON.stringify({ toolCalls: mode }));
      server.push(
        {
          kind: 'stream',
          toolCalls: [{ id: 'call_1', name: 'read', arguments: '{"path":"notes.md"}' }],
        },
        { kind: 'stream', content: 'Done. [WAIT]' },
      );
      const { code, out } = await run('read my notes');
      expect(code, out).toBe(0);
      const [first, second] = server.requests;
      const system = sent(first!)[0]!.content ?? '';
      if (mode === 'native') {
        const tools = first!.body.tools as {
          type: string;
          function: { name: string; parameters: { properties: object; required?: string[] } };
        }[];
        const read = tools.find((t) => t.function.name === 'read')!;
        expect(read.type).toBe('function');
        expect(read.function.parameters.properties).toHaveProperty('path');
        expect(read.function.parameters.required).toEqual(['path']);
        expect(system).not.toContain('[TOOL]');
        expect(system).not.toContain('read(path: string');
      } else {
        expect(first!.body).not.toHaveProperty('tools');
        expect(system).toContain('[TOOL] read("notes/todo.md") [/TOOL]');
      }
      // The cache rule: the same tools, and the first request's messages a prefix of the next.
      expect(JSON.stringify(second!.body.tools)).toBe(JSON.stringify(first!.body.tools));
      const a = JSON.stringify(sent(first!));
      const b = JSON.stringify(sent(second!));
      expect(b.startsWith(a.slice(0, -1))).toBe(true);
    },
  );
});
