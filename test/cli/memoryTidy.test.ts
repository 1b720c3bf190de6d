/**
 * Tidying the folder memory through the real program (`cogito -p` against the scripted
 * server; build first): an autonomous cycle's merge waits in the inbox with the memory file
 * unchanged, `/memory` shows it readably, `/memory accept 1` applies it and `/undo` takes it
 * back; a drop in the user's own turn applies at once; a proposal whose entries were removed
 * by hand changes nothing when accepted and says why; an idle cycle is asked to tidy only
 * when the memory is near its caps, in its note, never in the system prompt.
 */
import { readFileSync, realpathSync, writeFileSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatMemory, memoryPaths } from '../../src/knowledge/memoryFile.js';
import { runCogito } from '../helpers/cogitoProcess.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';

type Sent = { role: string; content: string }[];
const call = (...args: string[]): string =>
  `[TOOL] remember(${args.map((a) => JSON.stringify(a)).join(', ')}) [/TOOL]`;
const FACTS = ['Drafts go in out/', 'Reports go in out/', 'Answer in French'];

describe('tidying the folder memory', () => {
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  let env: Record<string, string>;
  let files: { memory: string; inbox: string };

  const writeFacts = (facts: readonly string[]): string => {
    const text = formatMemory(
      'memory',
      facts.map((t) => ({ date: '2026-12-01', source: 'user turn', text: t })),
    );
    mkdirSync(path.dirname(files.memory), { recursive: true });
    writeFileSync(files.memory, text);
    return text;
  };
  const read = (file: string): string => readFileSync(file, 'utf8');

  beforeEach(async () => {
    server = await startScriptedServer();
    ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-tidy-ws-'));
    home = await mkdtemp(path.join(os.tmpdir(), 'cogito-tidy-home-'));
    env = { COGITO_API_KEY: 'sk-test-key-123456', COGITO_BASE_URL: server.url, COGITO_MODEL: 'm' };
    files = memoryPaths(path.join(home, 'data'), realpathSync(ws));
  });
  afterEach(async () => {
    await server.close();
    await rm(ws, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  const run = async (args: string[]): Promise<{ code: number | null; err: string }> => {
    const r = runCogito(['--workspace', ws, '--home', home, '--think-interval', '0', ...args], env);
    const code = await r.code;
    return { code, err: r.stderr() };
  };
  const sent = (i: number): Sent => server.requests[i]!.body.messages as Sent;

  it('an autonomous merge waits in the inbox; accept applies it; /undo takes it back', async () => {
    const original = writeFacts(FACTS);
    server.setDefault({ kind: 'stream', content: 'Nothing new.' });
    server.push(
      { kind: 'stream', content: 'Hello.' },
      { kind: 'stream', content: call('Drafts and reports go in out/', '1,2', 'same folder') },
      { kind: 'stream', content: 'Proposed.' },
    );
    const r = await run(['-p', 'hi', '--max-cycles', '2']);
    expect(r.code, r.err).toBe(0);
    expect(sent(0)[0]!.content).toContain('1. 2026-12-01: Drafts go in out/');
    expect(sent(2).at(-1)!.content).toContain(
      'Proposed to the user: merge 1,2 → Drafts and reports go in out/ (same folder)',
    );
    expect(read(files.memory)).toBe(original);

    const listed = await run(['-p', '/memory']);
    expect(listed.err).toMatch(
      /Inbox: 1 proposal\(s\)[^\n]*\n {2}1\. [^\n]*autonomous · merge 1,2 → Drafts and reports go in out\/ \(same folder\)/,
    );
    const accepted = await run(['-p', '/memory accept 1']);
    expect(accepted.err).toContain(
      'Accepted into memory: merged "Drafts go in out/", "Reports go in out/" into "Drafts and reports go in out/"',
    );
    expect(read(files.memory)).toMatch(
      /^- \d{4}-\d{2}-\d{2} · autonomous · Drafts and reports go in out\/\n- 2026-12-01 · user turn · Answer in French$/m,
    );
    expect(read(files.memory)).not.toContain('Reports go in out/');
    expect(read(files.inbox)).not.toContain('"replaces"');

    const undone = await run(['-p', '/undo', '-c']);
    expect(undone.err).toContain('Undone in memory: accepted 1 proposal(s)');
    expect(read(files.memory)).toContain('Drafts go in out/');
    expect(read(files.memory)).not.toContain('Drafts and reports');
    expect(read(files.inbox)).toContain('"replaces"');
  }, 90_000);

  it('a drop in the user turn applies at once; an accepted drop of an entry removed by hand changes nothing', async () => {
    writeFacts(FACTS);
    server.push(
      { kind: 'stream', content: call('', '3', 'the user switched to English') },
      { kind: 'stream', content: 'Dropped. [WAIT]' },
    );
    const own = await run(['-p', 'forget the French rule']);
    expect(own.code, own.err).toBe(0);
    expect(sent(1).at(-1)!.content).toContain(
      'Memory tidied (2 entries now): dropped "Answer in French"',
    );
    expect(read(files.memory)).not.toContain('Answer in French');

    writeFacts(FACTS);
    server.setDefault({ kind: 'stream', content: 'Nothing new.' });
    server.push(
      { kind: 'stream', content: 'Hello.' },
      { kind: 'stream', content: call('', '2', 'stale') },
      { kind: 'stream', content: 'Proposed.' },
    );
    expect((await run(['-p', 'hi', '--max-cycles', '2'])).code).toBe(0);
    // By hand, the entry goes before the user sees the proposal.
    const edited = writeFacts(['Drafts go in out/', 'Answer in French']);
    const listed = await run(['-p', '/memory']);
    expect(listed.err).toContain('drop (gone: "Reports go in out/"): "Reports go in out/" (stale)');
    const accepted = await run(['-p', '/memory accept 1']);
    expect(accepted.err).toContain(
      'Not applied: "Reports go in out/" is no longer in the memory (edited or forgotten since it was proposed); nothing changed.',
    );
    expect(read(files.memory)).toBe(edited);
    expect(read(files.inbox)).toContain('"replaces":["Reports go in out/"]');
  }, 90_000);

  it('an idle cycle is asked to tidy only near the caps, in its note; the system prompt stays the same', async () => {
    writeFacts(Array.from({ length: 41 }, (_, i) => `Fact number ${i + 1}`));
    server.setDefault({ kind: 'stream', content: 'Nothing new.' });
    server.push({ kind: 'stream', content: 'Hello.' });
    const r = await run(['-p', 'hi', '--max-cycles', '2']);
    expect(r.code, r.err).toBe(0);
    const nudge = 'The folder memory is near its caps (41 of 50 entries';
    expect(sent(0).at(-1)!.content).not.toContain(nudge);
    expect(sent(1).at(-1)!.content).toContain(nudge);
    expect(sent(1)[0]!.content).toBe(sent(0)[0]!.content);

    writeFacts(FACTS);
    const before = server.requests.length;
    server.push({ kind: 'stream', content: 'Hello.' });
    expect((await run(['-p', 'hi', '--max-cycles', '2'])).code).toBe(0);
    expect(sent(before + 1).at(-1)!.content).toContain('Autonomous cycle');
    expect(sent(before + 1).at(-1)!.content).not.toContain('near its caps');
  }, 90_000);
});
