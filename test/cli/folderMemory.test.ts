/**
 * The folder memory through the real program (`cogito -p` against the scripted server; build
 * first): a fact remembered in the user's turn reaches a new session's first request and
 * survives compaction (whose flush proposes facts to the inbox); a fact remembered in an
 * autonomous turn waits in the inbox, out of the prompt, until accepted; `/undo` takes back a
 * memory change; a secret-looking fact is refused.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCogito } from '../helpers/cogitoProcess.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';

type Sent = { role: string; content: string }[];
const remember = (fact: string): string => `[TOOL] remember(${JSON.stringify(fact)}) [/TOOL]`;

describe('folder memory', () => {
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    server = await startScriptedServer();
    ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-mem-ws-'));
    home = await mkdtemp(path.join(os.tmpdir(), 'cogito-mem-home-'));
    env = { COGITO_API_KEY: 'sk-test-key-123456', COGITO_BASE_URL: server.url, COGITO_MODEL: 'm' };
  });
  afterEach(async () => {
    await server.close();
    await rm(ws, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  const run = async (
    args: string[],
  ): Promise<{ code: number | null; out: string; err: string }> => {
    const r = runCogito(['--workspace', ws, '--home', home, '--think-interval', '0', ...args], env);
    const code = await r.code;
    return { code, out: r.stdout(), err: r.stderr() };
  };
  const sent = (i: number): Sent => server.requests[i]!.body.messages as Sent;
  const system = (i: number): string => sent(i)[0]!.content;
  const memoryText = (suffix = '.md'): string => {
    const dir = path.join(home, 'data', 'memory');
    if (!existsSync(dir)) return '';
    const file = readdirSync(dir).find((f) => f.endsWith(suffix) && !f.endsWith(`.inbox${suffix}`));
    const name = suffix === '.inbox.md' ? readdirSync(dir).find((f) => f.endsWith(suffix)) : file;
    return name === undefined ? '' : readFileSync(path.join(dir, name), 'utf8');
  };

  it("a fact remembered in the user's turn reaches the next session's first request; /undo takes it back", async () => {
    server.push(
      { kind: 'stream', content: remember('Drafts go in drafts/') },
      { kind: 'stream', content: 'Noted. [WAIT]' },
    );
    const first = await run(['-p', 'remember: drafts go in drafts/']);
    expect(first.code, first.err).toBe(0);
    expect(sent(1).at(-1)!.content).toContain('Remembered (1 of at most 50 entries)');
    // Within the session the prompt is unchanged: the fact is in the tool result only.
    expect(system(0)).not.toContain('Drafts go in drafts/');
    expect(system(1)).toBe(system(0));
    expect(memoryText()).toMatch(/^- \d{4}-\d{2}-\d{2} · user turn · Drafts go in drafts\/$/m);

    server.push({ kind: 'stream', content: 'Hello. [WAIT]' });
    const second = await run(['-p', 'hi']);
    expect(second.code, second.err).toBe(0);
    expect(system(2)).toContain('# Memory of this folder');
    expect(system(2)).toContain('Drafts go in drafts/');

    const listed = await run(['-p', '/memory']);
    expect(listed.err).toMatch(/1\. \d{4}-\d{2}-\d{2} · user turn · Drafts go in drafts\//);

    const undo = await run(['-p', '/undo', '-c']);
    expect(undo.code, undo.err).toBe(0);
    expect(undo.err).toContain('Undone in memory: remembered "Drafts go in drafts/"');
    expect(memoryText()).not.toContain('Drafts go in drafts/');
    server.push({ kind: 'stream', content: 'Hello. [WAIT]' });
    await run(['-p', 'hi']);
    expect(system(server.requests.length - 1)).not.toContain('Drafts go in drafts/');
  }, 90_000);

  it('/undo takes back the newest change first: a file change after a memory change, then the memory', async () => {
    server.push(
      { kind: 'stream', content: remember('Drafts go in drafts/') },
      { kind: 'stream', content: 'Noted. [WAIT]' },
    );
    expect((await run(['-p', 'remember drafts'])).code).toBe(0);
    server.push(
      { kind: 'stream', content: '[TOOL] create("plan.md", "- a") [/TOOL]' },
      { kind: 'stream', content: 'Made. [WAIT]' },
    );
    expect((await run(['-p', 'make a plan', '-c'])).code).toBe(0);
    expect(existsSync(path.join(ws, 'plan.md'))).toBe(true);

    const first = await run(['-p', '/undo', '-c']);
    expect(first.code, first.err).toBe(0);
    expect(existsSync(path.join(ws, 'plan.md'))).toBe(false);
    expect(memoryText()).toContain('Drafts go in drafts/');
    const second = await run(['-p', '/undo', '-c']);
    expect(second.err).toContain('Undone in memory');
    expect(memoryText()).not.toContain('Drafts go in drafts/');
  }, 90_000);

  it('/memory edit in print mode names the file to open, with the reason', async () => {
    const r = await run(['-p', '/memory edit']);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('This screen cannot hand over the terminal: open it in your editor');
    expect(r.err).toMatch(/one fact a line: \S+[\\/]data[\\/]memory[\\/][0-9a-f]{16}\.md/);
  }, 30_000);

  it('a secret-looking fact is refused and never written', async () => {
    server.push(
      { kind: 'stream', content: remember('The database password is hunter2x') },
      { kind: 'stream', content: remember('Use api key sk-abcdefghijklmnop1234') },
      { kind: 'stream', content: 'OK. [WAIT]' },
    );
    const r = await run(['-p', 'remember my password']);
    expect(r.code, r.err).toBe(0);
    expect(sent(1).at(-1)!.content).toMatch(/Not remembered: it looks like it holds a password/);
    expect(sent(2).at(-1)!.content).toMatch(/Not remembered: it looks like it holds an API key/);
    expect(memoryText()).toBe('');
  }, 60_000);

  it('a fact remembered in an autonomous turn waits in the inbox, out of the prompt, until accepted', async () => {
    server.setDefault({ kind: 'stream', content: 'Nothing new.' });
    server.push(
      { kind: 'stream', content: 'Hello.' },
      { kind: 'stream', content: remember('Reports go in out/') },
      { kind: 'stream', content: 'Proposed.' },
    );
    const r = await run(['-p', 'hi', '--max-cycles', '2']);
    expect(r.code, r.err).toBe(0);
    expect(server.requests.length).toBeGreaterThanOrEqual(3);
    expect(sent(2).at(-1)!.content).toContain("waits in the user's /memory inbox");
    expect(memoryText()).toBe('');
    expect(memoryText('.inbox.md')).toContain('autonomous · Reports go in out/');

    const before = server.requests.length;
    server.push({ kind: 'stream', content: 'Hi. [WAIT]' });
    await run(['-p', 'hi']);
    expect(system(before)).not.toContain('Reports go in out/');

    const listed = await run(['-p', '/memory']);
    expect(listed.err).toMatch(/Inbox: 1 proposal\(s\)[^\n]*\n {2}1\. [^\n]*Reports go in out\//);
    const accepted = await run(['-p', '/memory accept 1']);
    expect(accepted.err).toContain('Accepted into memory: Reports go in out/');

    const after = server.requests.length;
    server.push({ kind: 'stream', content: 'Hi. [WAIT]' });
    await run(['-p', 'hi']);
    expect(system(after)).toContain('Reports go in out/');
    expect(memoryText('.inbox.md')).not.toContain('Reports go in out/');
  }, 90_000);

  it('a remembered fact survives compaction, and the flush proposes what the summary found', async () => {
    await writeFile(
      path.join(home, 'config.json'),
      JSON.stringify({ contextWindow: 8000, compressAt: 0.05 }),
    );
    server.push(
      { kind: 'stream', content: remember('Invoices are never touched') },
      { kind: 'stream', content: 'Noted. [WAIT]' },
    );
    const first = await run(['-p', 'never touch invoices/']);
    expect(first.code, first.err).toBe(0);

    const before = server.requests.length;
    server.push(
      {
        kind: 'stream',
        content:
          '## Files and folders discovered\n- invoices/\n## Open tasks\n- none\n## Worth remembering in this folder\n- The user writes reports in German',
      },
      { kind: 'stream', content: 'Still here. [WAIT]' },
    );
    const second = await run(['-p', 'go on', '-c']);
    expect(second.code, second.err).toBe(0);
    const summaryRequest = sent(before);
    expect(summaryRequest[0]!.content).toContain('## Worth remembering in this folder');
    const turn = sent(before + 1);
    // The summary replaced the older messages, without its flush section...
    const all = turn.map((m) => m.content).join('\n');
    expect(all).toContain('## Files and folders discovered');
    expect(all).not.toContain('Worth remembering');
    // ...the remembered fact is still in the prompt, and the flushed one waits in the inbox.
    expect(turn[0]!.content).toContain('Invoices are never touched');
    expect(turn[0]!.content).not.toContain('reports in German');
    expect(memoryText('.inbox.md')).toContain('compaction · The user writes reports in German');
  }, 90_000);
});
