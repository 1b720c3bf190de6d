/**
 * The agent's settings are one frozen value that its settings command replaces: /approve
 * makes a new value (the old one, held by anyone, stays as it was), and the tool runner
 * reads the value in force when each call starts.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { waitForStore } from '../helpers/waitFor.js';
import { changeSettings, internalsOf } from '../helpers/agentInternals.js';

const lastSent = (h: Harness, n: number): string =>
  String(h.server.requests[n]!.body.messages.at(-1).content);

describe('the settings value', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('is frozen, and /approve replaces it: the next call follows, an old reference does not change', async () => {
    h = await createHarness({ settings: { approval: { destructive: 'deny' } } });
    const before = internalsOf(h.agent).settings;
    expect(Object.isFrozen(before)).toBe(true);
    expect(Object.isFrozen(before.approval)).toBe(true);
    expect(() => {
      (before.approval as { destructive: string }).destructive = 'auto';
    }).toThrow(TypeError);

    await writeFile(path.join(h.workspaceDir, 'x.txt'), 'x');
    h.server.push(
      { kind: 'stream', content: '[TOOL] delete("x.txt") [/TOOL]' },
      { kind: 'stream', content: 'not allowed [WAIT]' },
    );
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'delete x' });
    await h.server.waitForRequest(1);
    expect(lastSent(h, 1)).toMatch(/denied by the approval policy/);
    await waitForStore(h.agent.store, (s) => s.machine === 'AWAITING_INPUT', '[WAIT]');
    await h.agent.idle();

    h.agent.send({ type: 'submit', text: '/approve destructive ask' });
    await waitForStore(
      h.agent.store,
      (s) => s.notices.some((n) => /destructive tools: ask/.test(n.text)),
      'the /approve answer',
    );
    await h.agent.idle();
    const after = internalsOf(h.agent).settings;
    expect(after).not.toBe(before);
    expect(after.approval.destructive).toBe('ask');
    expect(Object.isFrozen(after.approval)).toBe(true);
    expect(before.approval.destructive).toBe('deny');

    h.server.push({ kind: 'stream', content: '[TOOL] delete("x.txt") [/TOOL]' });
    h.agent.send({ type: 'submit', text: 'now ask me' });
    const asked = await waitForStore(
      h.agent.store,
      (s) => s.approval !== undefined,
      'the question',
    );
    expect(asked.approval!.kind).toBe('destructive');
    h.agent.send({ type: 'interrupt' });
    await h.agent.idle();
    expect(await readFile(path.join(h.workspaceDir, 'x.txt'), 'utf8')).toBe('x');
  });

  it('a change made while a call waits counts for the next call of the same reply', async () => {
    h = await createHarness();
    await writeFile(path.join(h.workspaceDir, 'a.txt'), 'a');
    await writeFile(path.join(h.workspaceDir, 'b.txt'), 'b');
    h.server.push(
      { kind: 'stream', content: '[TOOL] delete("a.txt") [/TOOL]\n[TOOL] delete("b.txt") [/TOOL]' },
      { kind: 'stream', content: 'done [WAIT]' },
    );
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'delete both' });
    await waitForStore(h.agent.store, (s) => s.approval !== undefined, 'the first question');
    changeSettings(h.agent, { approval: { destructive: 'deny' } });
    h.agent.send({ type: 'answer_approval', answer: 'yes' });
    await h.server.waitForRequest(1);
    const results = lastSent(h, 1);
    expect(results).toMatch(/\[RESULT delete\("a.txt"\)\] ok/);
    expect(results).toMatch(/delete\("b.txt"\)[^\n]*\n?[^\n]*denied by the approval policy/);
    expect(await readFile(path.join(h.workspaceDir, 'b.txt'), 'utf8')).toBe('b');
  });
});
