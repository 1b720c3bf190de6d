import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { waitForStore } from '../helpers/waitFor.js';
import { changeSettings } from '../helpers/agentInternals.js';

const resultsOf = (h: Harness, n: number): string =>
  String(h.server.requests[n]!.body.messages.at(-1).content);

describe('approval flow through the store', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  async function askToDelete(): Promise<void> {
    await writeFile(path.join(h.workspaceDir, 'old.txt'), 'old');
    h.server.push(
      { kind: 'stream', content: 'Cleaning up.\n[TOOL] delete("old.txt") [/TOOL]' },
      { kind: 'stream', content: 'Done. [WAIT]' },
    );
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'tidy up' });
    await waitForStore(
      h.agent.store,
      (s) => s.machine === 'AWAITING_APPROVAL' && s.approval !== undefined,
      'the approval request',
    );
  }

  it('ask → approve: the call runs and the turn goes on', async () => {
    h = await createHarness();
    await askToDelete();
    const req = h.agent.store.getState().approval!;
    expect(req.call).toBe('delete("old.txt")');
    expect(req.kind).toBe('destructive');
    h.agent.send({ type: 'answer_approval', answer: 'yes' });
    expect(h.agent.state).toBe('THINKING');
    await h.server.waitForRequest(1);
    expect(resultsOf(h, 1)).toMatch(/\[RESULT delete\("old.txt"\)\] ok/);
    // delete moves into the workspace trash instead of unlinking.
    const trash = await readdir(path.join(h.workspaceDir, '.cogito-trash'));
    expect(trash.some((f) => f.endsWith('old.txt'))).toBe(true);
    await waitForStore(h.agent.store, (s) => s.machine === 'AWAITING_INPUT', '[WAIT]');
  });

  it('ask → deny: the model sees the denial and the file stays', async () => {
    h = await createHarness();
    await askToDelete();
    h.agent.send({ type: 'answer_approval', answer: 'no' });
    await h.server.waitForRequest(1);
    expect(resultsOf(h, 1)).toMatch(/\[RESULT delete\("old.txt"\)\] error/);
    expect(resultsOf(h, 1)).toMatch(/declined/);
    expect(await readFile(path.join(h.workspaceDir, 'old.txt'), 'utf8')).toBe('old');
    expect(h.agent.store.getState().toolLog.at(-1)?.status).toBe('denied');
  });

  it('always: the tool is allowed for the rest of the run without asking again', async () => {
    h = await createHarness();
    await askToDelete();
    h.agent.send({ type: 'answer_approval', answer: 'always' });
    await waitForStore(h.agent.store, (s) => s.machine === 'AWAITING_INPUT', '[WAIT]');
    await h.agent.idle();
    await writeFile(path.join(h.workspaceDir, 'older.txt'), 'older');
    h.server.push(
      { kind: 'stream', content: '[TOOL] delete("older.txt") [/TOOL]' },
      { kind: 'stream', content: 'Gone too. [WAIT]' },
    );
    const asked: string[] = [];
    h.agent.subscribe((e) => {
      if (e.type === 'approval_request') asked.push(e.request.call);
    });
    h.agent.send({ type: 'submit', text: 'that one too' });
    await h.server.waitForRequest(3);
    expect(asked).toEqual([]);
    expect(resultsOf(h, 3)).toMatch(/\[RESULT delete\("older.txt"\)\] ok/);
  });

  it('overwriting a file with create asks even though write is auto', async () => {
    h = await createHarness();
    await writeFile(path.join(h.workspaceDir, 'plan.md'), 'v1');
    h.server.push(
      { kind: 'stream', content: '[TOOL] create("plan.md", "v2") [/TOOL]' },
      { kind: 'stream', content: 'ok [WAIT]' },
    );
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'rewrite the plan' });
    const s = await waitForStore(
      h.agent.store,
      (st) => st.approval !== undefined,
      'the overwrite question',
    );
    expect(s.approval!.reason).toMatch(/exist/i);
    h.agent.send({ type: 'answer_approval', answer: 'yes' });
    await h.server.waitForRequest(1);
    expect(await readFile(path.join(h.workspaceDir, 'plan.md'), 'utf8')).toBe('v2');
  });

  it('deny policy refuses without asking; an interrupt while asking denies and listens', async () => {
    h = await createHarness({ settings: { approval: { destructive: 'deny' } } });
    await writeFile(path.join(h.workspaceDir, 'x.txt'), 'x');
    h.server.push(
      { kind: 'stream', content: '[TOOL] delete("x.txt") [/TOOL]' },
      { kind: 'stream', content: 'ok [WAIT]' },
    );
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'delete x' });
    await h.server.waitForRequest(1);
    expect(resultsOf(h, 1)).toMatch(/denied by the approval policy/);
    await waitForStore(h.agent.store, (s) => s.machine === 'AWAITING_INPUT', '[WAIT]');
    await h.agent.idle();

    changeSettings(h.agent, { approval: { destructive: 'ask' } });
    h.server.push({ kind: 'stream', content: '[TOOL] delete("x.txt") [/TOOL]' });
    h.agent.send({ type: 'submit', text: 'now ask me' });
    await waitForStore(h.agent.store, (s) => s.machine === 'AWAITING_APPROVAL', 'the question');
    h.agent.send({ type: 'interrupt' });
    expect(h.agent.state).toBe('AWAITING_INPUT');
    await h.agent.idle();
    expect(h.agent.store.getState().approval).toBeUndefined();
    expect(await readFile(path.join(h.workspaceDir, 'x.txt'), 'utf8')).toBe('x');
  });
});
