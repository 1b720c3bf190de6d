import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCogito } from '../helpers/cogitoProcess.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const cogito = runCogito;

describe('print mode (-p)', () => {
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    server = await startScriptedServer({ requireKey: 'sk-secret-test-key' });
    ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-cli-ws-'));
    home = await mkdtemp(path.join(os.tmpdir(), 'cogito-cli-home-'));
    env = {
      COGITO_API_KEY: 'sk-secret-test-key',
      COGITO_BASE_URL: server.url,
      COGITO_MODEL: 'scripted',
    };
  });
  afterEach(async () => {
    await server.close();
    await rm(ws, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it("the prompt's own turn is the run: an answer without [WAIT] is printed and nothing more is sent", async () => {
    // A model that keeps talking after its answer: only --max-cycles would let it go on.
    server.setDefault({ kind: 'stream', content: 'Nothing new here.' });
    server.push({ kind: 'stream', content: 'The answer is 4.' });
    const run = cogito(['-p', 'what is 2+2?', '--workspace', ws, '--home', home], env);
    expect(await run.code, run.stderr()).toBe(0);
    expect(run.stdout()).toBe('The answer is 4.\n');
    expect(server.requests).toHaveLength(1);

    // With --max-cycles 3 it works on by itself, back to back (not the configured 30 s think
    // interval), and the last answer is the one printed.
    await writeFile(path.join(home, 'config.json'), JSON.stringify({ thinkIntervalMs: 30_000 }));
    server.push({ kind: 'stream', content: 'The answer is 4.' });
    const more = cogito(
      ['-p', 'what is 2+2?', '--workspace', ws, '--home', home, '--max-cycles', '3'],
      env,
    );
    expect(await more.code, more.stderr()).toBe(0);
    expect(more.stdout()).toBe('Nothing new here.\n');
    const sent = server.requests.slice(1);
    expect(sent).toHaveLength(3);
    const gaps = sent.slice(1).map((r, i) => r.receivedAt - sent[i]!.receivedAt);
    for (const gap of gaps) expect(gap).toBeLessThan(10_000);
  });

  it('stdout is the final answer only: narration and tool calls are not; it stops on [WAIT]', async () => {
    await writeFile(path.join(ws, 'hello.txt'), 'hello from the workspace');
    const script = (): void =>
      server.push(
        {
          kind: 'stream',
          reasoning: 'I should read the file.',
          content: 'Reading.\n[TOOL] read("hello.txt") [/TOOL]',
        },
        { kind: 'stream', content: 'It says hello. [WAIT]' },
      );
    script();
    const args = ['-p', 'look around', '--workspace', ws, '--home', home, '--think-interval', '0'];
    const run = cogito(args, env);
    expect(await run.code).toBe(0);
    // stdout: the last reply without tool calls, without the [WAIT] marker, with a newline.
    const out = run.stdout();
    expect(out).toBe('It says hello.\n');
    // stderr: tool progress; the narration and the reasoning only with --verbose.
    const err = run.stderr();
    expect(err).toMatch(/✓ read\("hello.txt"\)/);
    expect(err).not.toContain('I should read the file');
    expect(err).not.toContain('[TOOL]');
    expect(server.requests[1]!.body.messages.at(-1).content).toContain('hello from the workspace');
    expect(out + err).not.toContain('sk-secret-test-key');

    script();
    const verbose = cogito([...args, '--verbose'], env);
    expect(await verbose.code).toBe(0);
    expect(verbose.stdout()).toBe('It says hello.\n');
    expect(verbose.stderr()).toContain('[reasoning]\nI should read the file.\n');
    expect(verbose.stderr()).toContain('[narration]\nReading.\n[TOOL] read("hello.txt") [/TOOL]\n');
  }, 60_000);

  it('a key in the model reply is not printed, in text or --json', async () => {
    for (const json of [false, true]) {
      server.push({ kind: 'stream', content: ['Your key is sk-secret-', 'test-key, ok. [WAIT]'] });
      const args = ['-p', 'what is my key', '--workspace', ws, '--home', home];
      const run = cogito(json ? [...args, '--json'] : args, env);
      expect(await run.code).toBe(0);
      expect(run.stdout()).toContain('Your key is [redacted secret], ok.');
      expect(run.stdout() + run.stderr()).not.toContain('secret-test');
    }
  });

  it('stdout holds just the answer, so `> answer.md` captures it; notices go to stderr', async () => {
    server.push({
      kind: 'stream',
      reasoning: 'Short answer.',
      content: ['# Tea\n\nGreen tea is ', 'steamed.', ' [WA', 'IT]'],
    });
    const run = cogito(['-p', 'tea?', '--workspace', ws, '--home', home], env);
    expect(await run.code).toBe(0);
    expect(run.stdout()).toBe('# Tea\n\nGreen tea is steamed.\n');
    expect(run.stderr()).not.toContain('Short answer.');
  });

  it('a [WAIT] that is not the last thing in the reply is text, and kept', async () => {
    server.push({ kind: 'stream', content: 'Write [WAIT] at the end of a reply to stop. [WAIT]' });
    const run = cogito(['-p', 'how do I stop?', '--workspace', ws, '--home', home], env);
    expect(await run.code).toBe(0);
    expect(run.stdout()).toBe('Write [WAIT] at the end of a reply to stop.\n');
  });

  // Three runs of the CLI from the sources: more than the default timeout on a busy machine.
  it('--session of another workspace is refused in -p unless --force', async () => {
    const other = await mkdtemp(path.join(os.tmpdir(), 'cogito-cli-other-'));
    try {
      server.push({ kind: 'stream', content: 'Noted. [WAIT]' });
      const first = cogito(['-p', 'remember tea', '--workspace', ws, '--home', home], env);
      expect(await first.code).toBe(0);
      const [id] = await readdir(path.join(home, 'data', 'sessions'));

      const refused = cogito(
        ['-p', 'hi', '--workspace', other, '--home', home, '--session', id!],
        env,
      );
      expect(await refused.code).toBe(2);
      expect(refused.stderr()).toContain('--force');
      expect(refused.stdout()).toBe('');
      expect(server.requests).toHaveLength(1);

      server.push({ kind: 'stream', content: 'You said tea. [WAIT]' });
      const forced = cogito(
        [
          '-p',
          'what did I say?',
          '--workspace',
          other,
          '--home',
          home,
          '--session',
          id!,
          '--force',
        ],
        env,
      );
      expect(await forced.code).toBe(0);
      expect(JSON.stringify(server.requests[1]!.body.messages)).toContain('remember tea');
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  }, 60_000);

  it('--json prints one JSON event per line', async () => {
    server.push({ kind: 'stream', content: 'hi there [WAIT]' });
    const run = cogito(['-p', 'hi', '--json', '--workspace', ws, '--home', home], env);
    expect(await run.code).toBe(0);
    const events = run
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    const types = events.map((e) => e.type);
    expect(types).toContain('turn_start');
    expect(types).toContain('message_update');
    expect(types).toContain('turn_end');
    expect(types.filter((t) => t === 'state_changed').length).toBeGreaterThanOrEqual(2);
  });

  it('stops after --max-cycles turns', async () => {
    // Distinct replies, so the loop guard (near-identical replies) does not stop it first.
    const notes = [
      'Found a folder of photos.',
      'The notes mention a trip to Kyoto.',
      'Three drafts look unfinished.',
      'Nothing else here.',
    ];
    server.setDefault((req) => ({ kind: 'stream', content: notes[req.index % notes.length]! }));
    const run = cogito(
      ['-p', 'go', '--max-cycles', '3', '--think-interval', '0', '--workspace', ws, '--home', home],
      env,
    );
    expect(await run.code).toBe(0);
    expect(server.requests).toHaveLength(3);
  });

  it('Ctrl+C aborts the request in flight and exits cleanly', async () => {
    server.push({
      kind: 'stream',
      content: Array.from({ length: 500 }, () => 'zzz '),
      chunkDelayMs: 20,
    });
    const run = cogito(['-p', 'tell a story', '--workspace', ws, '--home', home], env);
    await server.waitForRequest(0, 15_000);
    run.kill('SIGINT');
    const closed = await server.waitForClose(0);
    expect(closed.completed).toBe(false);
    expect(await run.code).toBe(130);
    // An interrupted run has no final answer: nothing on stdout.
    expect(run.stdout()).toBe('');
  });

  it('a bad config value stops with the field, the fix and exit code 2', async () => {
    await writeFile(path.join(home, 'config.json'), JSON.stringify({ thinkIntervalMs: -5 }));
    const run = cogito(['-p', 'x', '--workspace', ws, '--home', home], env);
    expect(await run.code).toBe(2);
    expect(run.stderr()).toContain('thinkIntervalMs');
    expect(server.requests).toHaveLength(0);
  });

  it('an unknown flag names the problem', async () => {
    const run = cogito(['--frobnicate'], env);
    expect(await run.code).toBe(2);
    expect(run.stderr()).toMatch(/frobnicate/);
    expect(run.stderr()).toMatch(/--help/);
  });
});

describe('the cogito bin', () => {
  it('runs through bin/cogito.js (the installed command)', async () => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/cogito.js'), '--version'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(out).toMatch(/^cogito \d+\.\d+\.\d+/);
  });
});
