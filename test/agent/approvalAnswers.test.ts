/**
 * An approval answer is kept in the session's answers.jsonl before it is applied (issue 40):
 * the answer line is on disk when `answer_approval` returns, "done" once the call has ended,
 * and an answer that cannot be written is not applied unless it is a "no".
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ANSWERS_FILE } from '../../src/history/answerLog.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { waitForStore } from '../helpers/waitFor.js';

const lines = async (h: Harness): Promise<Record<string, unknown>[]> =>
  (await readFile(path.join(h.session.dir, ANSWERS_FILE), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('approval answers are durable before they are applied', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  async function askToDelete(): Promise<number> {
    await writeFile(path.join(h.workspaceDir, 'old.txt'), 'old');
    h.server.push(
      { kind: 'stream', content: '[TOOL] delete("old.txt") [/TOOL]' },
      { kind: 'stream', content: 'Done. [WAIT]' },
    );
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'tidy up' });
    const s = await waitForStore(h.agent.store, (st) => st.approval !== undefined, 'the card');
    return s.approval!.id;
  }

  it('the answer is on disk when it is acknowledged, and done once the call ended', async () => {
    h = await createHarness();
    const id = await askToDelete();
    expect(h.agent.send({ type: 'answer_approval', answer: 'yes', id })).toEqual({ ok: true });
    const kept = await lines(h);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ t: 'answer', id, answer: 'yes', call: 'delete("old.txt")' });
    await waitForStore(h.agent.store, (s) => s.machine === 'AWAITING_INPUT', '[WAIT]');
    expect((await lines(h))[1]).toEqual({ t: 'done', id });
  });

  it('a "yes" that cannot be written is refused and the card stays; a "no" still applies', async () => {
    h = await createHarness();
    const id = await askToDelete();
    // A folder where the file belongs: every append fails (EISDIR).
    await mkdir(path.join(h.session.dir, ANSWERS_FILE));
    const refused = h.agent.send({ type: 'answer_approval', answer: 'yes', id });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.problem).toContain('could not be saved, so it is not applied');
    expect(h.agent.state).toBe('AWAITING_APPROVAL');
    expect(h.agent.store.getState().approval?.id).toBe(id);
    const said = h.agent.store.getState().notices.map((n) => n.text);
    expect(said.some((t) => t.startsWith('Your answer was not applied: the answer could'))).toBe(
      true,
    );

    expect(h.agent.send({ type: 'answer_approval', answer: 'no', id })).toEqual({ ok: true });
    await waitForStore(h.agent.store, (s) => s.machine === 'AWAITING_INPUT', '[WAIT]');
    const notices = h.agent.store.getState().notices.map((n) => n.text);
    expect(notices.some((t) => t.includes('The answer could not be saved'))).toBe(true);
    expect(await readFile(path.join(h.workspaceDir, 'old.txt'), 'utf8')).toBe('old');
  });
});
