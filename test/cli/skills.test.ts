/**
 * Skills through the real program (`cogito -p` against the scripted server): the catalogue
 * in the first request and the same system prompt bytes on every request, `/name args` as the
 * user's turn, and a skill's files read only inside its folder.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCogito } from '../helpers/cogitoProcess.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';

describe('skills (-p)', () => {
  let server: ScriptedServer;
  let tmp: string;
  let ws: string;
  let home: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    server = await startScriptedServer();
    tmp = await mkdtemp(path.join(os.tmpdir(), 'cogito-cli-skills-'));
    ws = path.join(tmp, 'ws');
    home = path.join(tmp, 'home');
    const review = path.join(ws, '.agents', 'skills', 'weekly-review');
    const helper = path.join(home, 'skills', 'helper');
    await mkdir(review, { recursive: true });
    await mkdir(helper, { recursive: true });
    await writeFile(
      path.join(review, 'SKILL.md'),
      '---\nname: weekly-review\ndescription: Review notes/ once a week and list what is stale.\n---\nReview the notes in $1, then: $ARGUMENTS\n',
    );
    await writeFile(
      path.join(helper, 'SKILL.md'),
      '---\nname: helper\ndescription: Help with the helper task.\n---\nHELPER-BODY: read reference.md first.\n',
    );
    await writeFile(path.join(helper, 'reference.md'), 'REFERENCE-TEXT\n');
    await writeFile(path.join(tmp, 'secret.txt'), 'OUTSIDE-SECRET\n');
    await symlink(path.join(tmp, 'secret.txt'), path.join(helper, 'leak.md'));
    await writeFile(path.join(ws, 'a.txt'), 'hello\n');
    env = { COGITO_API_KEY: 'k', COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' };
  });
  afterEach(async () => {
    await server.close();
    await rm(tmp, { recursive: true, force: true });
  });

  const cogito = (...args: string[]) =>
    runCogito(['--workspace', ws, '--home', home, ...args], env);
  const system = (i: number): string => String(server.requests[i]!.body.messages[0].content);
  const last = (i: number): string => String(server.requests[i]!.body.messages.at(-1).content);

  it('the catalogue reaches the first request, and the system prompt bytes stay the same across steps and turns', async () => {
    server.setDefault({ kind: 'stream', content: 'Nothing new.' });
    server.push({ kind: 'stream', content: '[TOOL] read("a.txt") [/TOOL]' });
    const run = cogito('-p', 'look around', '--max-cycles', '2');
    expect(await run.code, run.stderr()).toBe(0);
    expect(server.requests.length).toBeGreaterThanOrEqual(3);
    const first = system(0);
    expect(first).toContain('# Skills');
    expect(first).toContain('- weekly-review: Review notes/ once a week and list what is stale.');
    expect(first).toContain('- helper: Help with the helper task.');
    expect(first).toContain('- write-skill: '); // Cogito's own
    expect(first).toContain('skill(name: string, path?: string)');
    // Only names and descriptions: no body is in the prompt before a skill is used.
    expect(first).not.toContain('HELPER-BODY');
    for (let i = 1; i < server.requests.length; i++) expect(system(i)).toBe(first);
  });

  it('/name args runs a skill as the user turn, with the arguments put in, and counts as a use', async () => {
    server.push({ kind: 'stream', content: 'Reviewed. [WAIT]' });
    const run = cogito('-p', '/weekly-review notes/ mark stale ones');
    expect(await run.code, run.stderr()).toBe(0);
    const turn = last(0);
    expect(turn).toContain(
      'Skill "weekly-review", run by the user as /weekly-review notes/ mark stale ones',
    );
    expect(turn).toContain('Review the notes in notes/, then: notes/ mark stale ones');
    expect(turn).not.toContain('$ARGUMENTS');
    expect(run.stdout()).toBe('Reviewed.\n');

    const list = cogito('-p', '/skills', '-c');
    expect(await list.code, list.stderr()).toBe(0);
    const out = list.stdout() + list.stderr();
    expect(out).toMatch(/\/weekly-review\s+workspace\s+offered \d+, used 1/);
    expect(out).toMatch(/\/helper\s+home\s+offered \d+, used 0/);
  });

  it("attack: a skill's file outside its folder is refused (.., absolute, a symlink out); inside it is read", async () => {
    const calls = [
      'skill("helper", "../../secret.txt")',
      'skill("helper", "/etc/passwd")',
      'skill("helper", "leak.md")',
      'skill("helper", "..")',
      'skill("helper", "reference.md")',
      'skill("helper")',
    ];
    server.push(
      { kind: 'stream', content: calls.map((c) => `[TOOL] ${c} [/TOOL]`).join('\n') },
      { kind: 'stream', content: 'done [WAIT]' },
    );
    const run = cogito('-p', 'use the helper');
    expect(await run.code, run.stderr()).toBe(0);
    const results = last(1);
    expect(results).not.toContain('OUTSIDE-SECRET');
    expect(results).not.toContain('root:');
    expect(results).toMatch(
      /\[RESULT skill\("helper", "\.\.\/\.\.\/secret\.txt"\)\] error\n[^\n]*leads out of the skill's folder/,
    );
    expect(results).toMatch(/\[RESULT skill\("helper", "\/etc\/passwd"\)\] error\n[^\n]*leads out/);
    expect(results).toMatch(
      /\[RESULT skill\("helper", "leak\.md"\)\] error\n[^\n]*link that leads out/,
    );
    expect(results).toContain('REFERENCE-TEXT');
    expect(results).toContain('HELPER-BODY');
    expect(results).toMatch(/- reference\.md/);
    // A link out of the folder is not even listed.
    expect(results).not.toMatch(/- leak\.md/);
  });

  it('a workspace skill is not loaded without the user saying yes (print mode cannot ask: declined)', async () => {
    server.push(
      { kind: 'stream', content: '[TOOL] skill("weekly-review") [/TOOL]' },
      { kind: 'stream', content: 'ok [WAIT]' },
    );
    const run = cogito('-p', 'review', '--approve', 'read');
    expect(await run.code, run.stderr()).toBe(0);
    const results = last(1);
    expect(results).toMatch(/\[RESULT skill\("weekly-review"\)\] (error|denied)/);
    expect(results).not.toContain('Review the notes in');
    expect(run.stderr()).toMatch(/needs approval every time/);
  });
});
