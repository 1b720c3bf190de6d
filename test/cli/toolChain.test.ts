/**
 * A tool chain is one turn, through the real program (`cogito -p` against the scripted
 * server): the results of a reply's calls go back at once as the same turn's next request,
 * worded as the user's turn, never paced by the think interval; `/undo` takes the whole turn
 * back; the step limit ends a runaway chain; an interrupt stops it.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCogito } from '../helpers/cogitoProcess.js';
import {
  startScriptedServer,
  type RecordedRequest,
  type ScriptedServer,
} from '../helpers/scriptedServer.js';

/** Large, so a continuation that waited for it could not pass for one that did not. */
const THINK_MS = 30_000;

type Sent = { role: string; content: string }[];
const sent = (r: RecordedRequest): Sent => r.body.messages as Sent;
/** What a request says besides the system prompt (which describes autonomy in general). */
const spoken = (r: RecordedRequest): string =>
  JSON.stringify(sent(r).filter((m) => m.role !== 'system'));

describe('a tool chain is one turn (-p)', () => {
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  let env: Record<string, string>;
  const args = (prompt: string, ...more: string[]): string[] => [
    '-p',
    prompt,
    '--workspace',
    ws,
    '--home',
    home,
    '--think-interval',
    String(THINK_MS),
    ...more,
  ];

  beforeEach(async () => {
    server = await startScriptedServer();
    ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-chain-ws-'));
    home = await mkdtemp(path.join(os.tmpdir(), 'cogito-chain-home-'));
    env = { COGITO_API_KEY: 'sk-test', COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' };
  });
  afterEach(async () => {
    await server.close();
    await rm(ws, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  /** Three replies that each write a file, then one that answers. */
  const threeWrites = (): void => {
    server.push(
      { kind: 'stream', content: 'Planning.\n[TOOL] create("plan.md", "# Plan") [/TOOL]' },
      { kind: 'stream', content: '[TOOL] create("steps.md", "1. start") [/TOOL]' },
      { kind: 'stream', content: '[TOOL] edit("plan.md", "# Plan", "# The plan") [/TOOL]' },
      { kind: 'stream', content: 'plan.md and steps.md are written. [WAIT]' },
    );
  };

  it('sends each result back at once as the same user turn: 4 requests, no pause, no "autonomous" wording', async () => {
    threeWrites();
    const run = runCogito(args('write plan.md'), env);
    expect(await run.code).toBe(0);
    expect(await readFile(path.join(ws, 'plan.md'), 'utf8')).toBe('# The plan');
    const reqs = server.requests;
    expect(reqs).toHaveLength(4);
    for (let i = 1; i < reqs.length; i++) {
      const gap = reqs[i]!.receivedAt - reqs[i - 1]!.receivedAt;
      // Paced by the think interval, each gap would be 30 s or more.
      expect(gap, `gap before request ${i}`).toBeLessThan(THINK_MS / 3);
      // Each continuation ends on the result of the call just made…
      expect(sent(reqs[i]!).at(-1)!.content).toMatch(/\[RESULT/);
    }
    expect(sent(reqs[1]!).at(-1)!.content).toContain('create("plan.md"');
    expect(sent(reqs[3]!).at(-1)!.content).toContain('edit("plan.md"');
    // …and none of them tells the model the user left, or calls the turn a cycle.
    for (const r of reqs) {
      expect(spoken(r)).not.toMatch(/Autonomous|user is not here|Continue your own work/i);
    }
    // The user's words are asked once, and every request carries them.
    for (const r of reqs) expect(spoken(r).match(/write plan\.md/g)).toHaveLength(1);
    // One turn in the session's ledger, with all three calls.
    const [id] = await readdir(path.join(home, 'data', 'sessions'));
    const ledger = await readFile(path.join(home, 'data', 'sessions', id!, 'ledger.jsonl'), 'utf8');
    const records = ledger
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { reason: string; tools: string[]; end: string });
    expect(records).toHaveLength(1);
    expect(records[0]!.reason).toBe('user');
    expect(records[0]!.tools).toHaveLength(3);
    expect(records[0]!.end).toBe('waited');
  }, 60_000);

  it('/undo after a 3-step chain takes the whole turn back', async () => {
    await writeFile(path.join(ws, 'keep.txt'), 'untouched');
    threeWrites();
    const first = runCogito(args('write plan.md'), env);
    expect(await first.code).toBe(0);
    expect(existsSync(path.join(ws, 'steps.md'))).toBe(true);
    const [id] = await readdir(path.join(home, 'data', 'sessions'));

    const undo = runCogito(args('/undo', '--session', id!), env);
    expect(await undo.code).toBe(0);
    expect(undo.stderr()).toMatch(/plan\.md/);
    // All three changes of the turn are gone, not only the last step's edit.
    expect(existsSync(path.join(ws, 'plan.md'))).toBe(false);
    expect(existsSync(path.join(ws, 'steps.md'))).toBe(false);
    expect(await readFile(path.join(ws, 'keep.txt'), 'utf8')).toBe('untouched');
    expect(server.requests).toHaveLength(4);
  }, 60_000);

  it('the step limit ends a runaway chain with a notice', async () => {
    await writeFile(path.join(home, 'config.json'), JSON.stringify({ maxStepsPerTurn: 3 }));
    // Every reply calls a tool (each a different one, so the loop guard does not fire).
    server.setDefault((req) => ({
      kind: 'stream',
      content: `[TOOL] create("f${req.index}.txt", "${req.index}") [/TOOL]`,
    }));
    const run = runCogito(args('fill the folder'), env);
    // Paused by a stop rule: exit 1, with the reason on stderr.
    expect(await run.code).toBe(1);
    expect(server.requests).toHaveLength(3);
    expect(run.stderr()).toMatch(/limit of 3 requests in one tool chain \(maxStepsPerTurn\)/);
    expect((await readdir(ws)).sort()).toEqual(['f0.txt', 'f1.txt', 'f2.txt']);
  }, 60_000);

  it('an interrupt mid-chain stops it: no further request, the run ends', async () => {
    server.push(
      { kind: 'stream', content: '[TOOL] create("one.txt", "1") [/TOOL]' },
      { kind: 'hang' },
      { kind: 'stream', content: '[TOOL] create("two.txt", "2") [/TOOL]' },
    );
    const run = runCogito(args('write two files'), env);
    await server.waitForRequest(1, 15_000);
    run.kill('SIGINT');
    expect(await run.code).toBe(130);
    await server.waitForClose(1);
    expect(server.requests).toHaveLength(2);
    expect(existsSync(path.join(ws, 'one.txt'))).toBe(true);
    expect(existsSync(path.join(ws, 'two.txt'))).toBe(false);
  }, 60_000);
});
