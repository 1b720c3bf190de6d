import { waitUntil } from '../helpers/waitFor.js';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/builtin.js';
import { completeCommand } from '../../src/commands/runner.js';
import { appPaths } from '../../src/config/paths.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { waitForStore } from '../helpers/waitFor.js';
import { internalsOf } from '../helpers/agentInternals.js';

/** Runs a command typed by the user and resolves with the notices it produced. */
async function run(h: Harness, text: string): Promise<string> {
  const before = h.agent.store.getState().notices.length;
  const commandTurns = (): number =>
    h.agent.store.getState().traces.filter((t) => t.outcome === 'command').length;
  const done = commandTurns() + 1;
  if (h.agent.state === 'THINKING') h.agent.send({ type: 'interrupt' });
  h.agent.send({ type: 'submit', text: text });
  await waitForStore(h.agent.store, () => commandTurns() === done, text);
  await h.agent.idle();
  return h.agent.store
    .getState()
    .notices.slice(before)
    .map((n) => n.text)
    .join('\n');
}

describe('slash commands', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('the table holds every command the product promises', () => {
    expect(COMMANDS.map((c) => c.name).sort()).toEqual(
      [
        'approve',
        'changes',
        'clear',
        'compact',
        'context',
        'cost',
        'detach',
        'exit',
        'export',
        'help',
        'init',
        'mcp',
        'ledger',
        'memory',
        'model',
        'new',
        'pause',
        'persona',
        'remind',
        'resume',
        'sessions',
        'skills',
        'stop',
        'tools',
        'trace',
        'undo',
      ].sort(),
    );
  });

  it('/help lists every command, and commands never reach the model', async () => {
    h = await createHarness();
    h.agent.start();
    const out = await run(h, '/help');
    for (const c of COMMANDS) expect(out).toContain(`/${c.name}`);
    expect(h.server.requests).toHaveLength(0);
    expect(h.agent.state).toBe('AWAITING_INPUT');
    expect(h.session.messages()).toHaveLength(0);
  });

  it('an unknown command answers with the list', async () => {
    h = await createHarness();
    h.agent.start();
    const out = await run(h, '/frobnicate now');
    expect(out).toMatch(/unknown command \/frobnicate/);
    expect(out).toContain('/help');
    expect(h.server.requests).toHaveLength(0);
  });

  it('/pause, /resume and /stop move the machine', async () => {
    h = await createHarness();
    h.server.setDefault({ kind: 'stream', content: 'thinking along', chunkDelayMs: 5 });
    h.agent.start();
    await run(h, '/pause');
    expect(h.agent.state).toBe('PAUSED');
    h.agent.send({ type: 'submit', text: '/resume' });
    await waitForStore(h.agent.store, (s) => s.machine === 'THINKING', 'resume');
    await h.server.waitForRequest(0);
    await run(h, '/stop');
    expect(h.agent.state).toBe('AWAITING_INPUT');
  });

  it('the COMMAND phase acts on the outcome: /resume keeps THINKING, /help gives the floor back', async () => {
    h = await createHarness({ initialState: 'PAUSED' });
    h.server.setDefault({ kind: 'stream', content: 'looking around' });
    h.agent.start();
    const states: string[] = [];
    const off = h.agent.subscribe((e) => {
      if (e.type === 'state_changed') states.push(`${e.event}→${e.to}`);
    });
    await run(h, '/resume');
    expect(states.slice(0, 2)).toEqual(['SUBMIT→PAUSED', 'RESUME→THINKING']);
    expect(states).not.toContain('WAIT→AWAITING_INPUT');
    await h.server.waitForRequest(0);
    states.length = 0;
    await run(h, '/help');
    off();
    expect(states).toEqual(['INTERRUPT→AWAITING_INPUT', 'SUBMIT→THINKING', 'WAIT→AWAITING_INPUT']);
    expect(h.agent.state).toBe('AWAITING_INPUT');
  });

  it('/new starts a fresh session and keeps the old one; /sessions lists both', async () => {
    h = await createHarness();
    h.server.push({ kind: 'stream', content: 'hello [WAIT]' });
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'first session message' });
    await waitForStore(
      h.agent.store,
      (s) => s.messages.length === 2 && s.machine === 'AWAITING_INPUT',
      'reply',
    );
    const oldId = h.session.id;
    const out = await run(h, '/new');
    expect(out).toContain(oldId);
    expect(h.session.id).not.toBe(oldId);
    expect(h.agent.store.getState().messages).toHaveLength(0);
    const list = await run(h, '/sessions');
    expect(list).toContain(oldId);
    expect(list).toContain(h.session.id);
    expect(list).toContain('first session message');
    // The next request starts from the empty session.
    h.server.push({ kind: 'stream', content: 'fresh [WAIT]' });
    h.agent.send({ type: 'submit', text: 'hi again' });
    const req = await h.server.waitForRequest(1);
    expect(JSON.stringify(req.body.messages)).not.toContain('first session message');
  });

  it('/new shows the fresh conversation with one history_loaded, and the agent writes to the new session', async () => {
    h = await createHarness();
    h.server.push({ kind: 'stream', content: 'hello [WAIT]' });
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'old words' });
    await waitForStore(h.agent.store, (s) => s.messages.length === 2, 'reply');
    await h.agent.idle();
    const oldSession = h.session;
    const replaced: number[] = [];
    const off = h.agent.subscribe((e) => {
      if (e.type === 'messages_replaced' || e.type === 'history_loaded')
        replaced.push(e.messages.length);
    });
    await run(h, '/new');
    off();
    expect(replaced).toEqual([0]);
    expect(h.session).not.toBe(oldSession);
    // The agent's history is the holder: what it saves next lands in the new session only.
    h.server.push({ kind: 'stream', content: 'new here [WAIT]' });
    h.agent.send({ type: 'submit', text: 'new words' });
    await waitForStore(h.agent.store, (s) => s.messages.length === 2, 'reply in the new session');
    expect(h.session.messages().map((m) => m.content)).toEqual(['new words', 'new here [WAIT]']);
    expect(oldSession.messages()).toHaveLength(2);
  });

  it('/persona switches live: the next request has the new persona in its system prompt', async () => {
    h = await createHarness();
    h.agent.start();
    const list = await run(h, '/persona');
    expect(list).toContain('detective');
    const out = await run(h, '/persona 侦探');
    expect(out).toMatch(/Detective/);
    expect(h.agent.store.getState().persona).toBe('detective');
    h.server.push({ kind: 'stream', content: 'clues [WAIT]' });
    h.agent.send({ type: 'submit', text: 'what do you see?' });
    const req = await h.server.waitForRequest(0);
    expect(req.body.messages[0].content).toContain('# Persona: Detective');
    expect(await run(h, '/persona nobody')).toMatch(/no persona "nobody"/);
  });

  it('/model switches the model for the next request', async () => {
    h = await createHarness();
    h.agent.start();
    expect(await run(h, '/model')).toContain('test-model');
    await run(h, '/model other-model');
    expect(h.agent.store.getState().model).toBe('other-model');
    h.server.push({ kind: 'stream', content: 'ok [WAIT]' });
    h.agent.send({ type: 'submit', text: 'hi' });
    expect((await h.server.waitForRequest(0)).body.model).toBe('other-model');
  });

  it('/model lists the downloaded models and switches to one by file name', async () => {
    h = await createHarness();
    const models = path.join(h.home, 'models');
    await mkdir(models, { recursive: true });
    await writeFile(path.join(models, 'qwen2.5-3b-instruct-q4_k_m.gguf'), 'GGUF');
    await writeFile(path.join(models, 'other.gguf'), 'GGUF-two');
    await writeFile(path.join(models, 'half.gguf.part'), 'GG');
    h.agent.start();
    const list = await run(h, '/model');
    expect(list).toContain(`downloaded models (in ${models})`);
    expect(list).toMatch(/other\.gguf\s+8 B/);
    expect(list).toContain('qwen2.5-3b-instruct-q4_k_m.gguf');
    expect(list).not.toContain('half');

    expect(await run(h, '/model other')).toContain('model: other.gguf (local');
    expect(internalsOf(h.agent).provider.id).toBe('local');
    expect(internalsOf(h.agent).provider.model).toBe('other.gguf');
    expect(await run(h, '/model')).toMatch(/● other\.gguf/);
  });

  it('/tools lists every tool with its kind and approval; /approve shows and changes the policy', async () => {
    h = await createHarness();
    h.agent.start();
    const tools = await run(h, '/tools');
    for (const t of internalsOf(h.agent).registry.list()) expect(tools).toContain(t.name);
    expect(await run(h, '/approve')).toMatch(/destructive\s+ask/);
    expect(await run(h, '/approve destructive deny')).toMatch(/destructive tools: deny/);
    expect(internalsOf(h.agent).settings.approval.destructive).toBe('deny');
    expect(await run(h, '/approve everything yes')).toMatch(/usage: \/approve KIND POLICY/);
  });

  it('/trace shows the last turns with their phases', async () => {
    h = await createHarness();
    h.server.push({ kind: 'stream', content: 'ok [WAIT]' });
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'hi' });
    await waitForStore(
      h.agent.store,
      (s) => s.messages.length === 2 && s.machine === 'AWAITING_INPUT',
      'reply',
    );
    await h.agent.idle();
    const out = await run(h, '/trace');
    expect(out).toMatch(
      /turn 1 \(user, ok, \d+ ms\): RESTORE \d+ms → COMPACT \d+ms → COMMAND \d+ms → BUILD \d+ms → RUN \d+ms → SAVE \d+ms → RESPOND \d+ms/,
    );
  });

  it('/clear empties the screen but keeps the history; /export md writes a transcript', async () => {
    h = await createHarness();
    h.server.push({
      kind: 'stream',
      content: 'The answer is 42. [WAIT]',
      reasoning: 'think think',
    });
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'question?' });
    await waitForStore(
      h.agent.store,
      (s) => s.messages.length === 2 && s.machine === 'AWAITING_INPUT',
      'reply',
    );
    await run(h, '/clear');
    expect(h.agent.store.getState().messages).toHaveLength(0);
    expect(h.session.messages()).toHaveLength(2);
    const out = await run(h, '/export md');
    const file = /transcript written to (.+\.md)/.exec(out)![1]!;
    expect(path.dirname(file)).toBe(path.join(h.home, 'data', 'exports'));
    expect(path.dirname(file)).toBe(appPaths(h.home).exports);
    const md = await readFile(file, 'utf8');
    expect(md).toContain('## You');
    expect(md).toContain('question?');
    expect(md).toContain('> think think');
    expect(md).toContain('The answer is 42.');
  });

  it('/exit asks the host to quit through its port (not an event)', async () => {
    let asked = 0;
    h = await createHarness({ quit: () => void asked++ });
    h.agent.start();
    await run(h, '/exit');
    await waitUntil(() => asked === 1, 'the host quit');
    expect(asked).toBe(1);
  });

  it('/exit without a host to quit says so, and the agent goes on', async () => {
    h = await createHarness();
    h.agent.start();
    await run(h, '/exit');
    await waitUntil(
      () => h.agent.store.getState().notices.some((n) => n.text.startsWith('nothing to quit')),
      'the notice',
    );
  });

  it('/detach asks the host to detach through its port; without one it says so', async () => {
    let asked = 0;
    h = await createHarness({ detach: () => void asked++ });
    h.agent.start();
    await run(h, '/detach');
    await waitUntil(() => asked === 1, 'the host detach');
    await h.dispose();
    h = await createHarness();
    h.agent.start();
    await run(h, '/detach');
    await waitUntil(
      () => h.agent.store.getState().notices.some((n) => n.text.startsWith('nothing to detach')),
      'the notice',
    );
  });

  it('Tab completion completes command names', () => {
    expect(completeCommand('/pe')).toEqual(['/persona']);
    expect(completeCommand('/s').sort()).toEqual(['/sessions', '/skills', '/stop']);
    expect(completeCommand('/zz')).toEqual([]);
    // Skills run as commands complete after the built-ins; one named like a built-in once.
    expect(completeCommand('/w', ['weekly-review', 'help'])).toEqual(['/weekly-review']);
    expect(completeCommand('/he', ['help'])).toEqual(['/help']);
  });
});

describe('in Chinese', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('commands and pause reasons answer in the UI language', async () => {
    h = await createHarness({ settings: { lang: 'zh', maxAutonomousCycles: 1 } });
    h.agent.start();
    const help = await run(h, '/help');
    expect(help).toContain('命令：');
    expect(help).toContain('列出已保存的会话');
    expect(await run(h, '/nope')).toContain('没有命令 /nope');
    h.server.setDefault({ kind: 'stream', content: '看了一圈。' });
    h.agent.send({ type: 'resume' });
    const s = await waitForStore(h.agent.store, (st) => st.machine === 'PAUSED', 'the cycle pause');
    expect(s.pauseReason).toContain('已暂停：连续 1 轮自主思考');
  });
});
