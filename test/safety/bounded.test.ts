/**
 * Bounded work: a reply cannot make the agent run without limit. 10,000 `create` calls in
 * one reply once made 10,000 files; now only `maxToolCallsPerReply` run and the model is
 * told why the rest did not. An interrupt lands between any two calls.
 */
import { readdir } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { Tool } from '../../src/tools/types.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { waitForStore } from '../helpers/waitFor.js';
import { lastMessage, runUntilWait } from './attackHarness.js';

let h: Harness;
afterEach(async () => h?.dispose());

const creates = (n: number): string =>
  Array.from({ length: n }, (_, i) => `[TOOL] create("f${i}.txt", "x") [/TOOL]`).join('\n');

describe('at most maxToolCallsPerReply calls run per reply', () => {
  it('10,000 create calls make 25 files; the rest come back as not run, with the reason', async () => {
    // A window large enough that the 400 KB reply does not trigger compression first.
    h = await createHarness({ settings: { contextWindow: 10_000_000 } });
    h.server.push(
      { kind: 'stream', content: [creates(10_000)] },
      { kind: 'stream', content: 'ok [WAIT]' },
    );
    await runUntilWait(h, 'make files');
    const files = await readdir(h.workspaceDir);
    expect(files.filter((f) => /^f\d+\.txt$/.test(f))).toHaveLength(25);
    const seen = lastMessage(h, 1);
    expect(seen).toContain('[RESULT 9975 more calls] error');
    expect(seen).toContain('at most 25 run per reply (config maxToolCallsPerReply)');
    // 25 calls ran; the rest are one skipped line (as a restart rebuilds it), none of them run.
    const log = h.agent.store.getState().toolLog;
    expect(log).toHaveLength(26);
    expect(log.slice(0, 25).every((e) => e.status === 'ok')).toBe(true);
    expect(log[25]).toMatchObject({ call: '9975 more calls', status: 'skipped' });
  });

  it('the cap follows the setting', async () => {
    h = await createHarness({ settings: { maxToolCallsPerReply: 3 } });
    h.server.push(
      { kind: 'stream', content: [creates(5)] },
      { kind: 'stream', content: 'ok [WAIT]' },
    );
    await runUntilWait(h, 'make files');
    expect((await readdir(h.workspaceDir)).filter((f) => f.endsWith('.txt'))).toHaveLength(3);
    expect(lastMessage(h, 1)).toContain('Calls 4 to 5 were not run');
  });
});

describe('an interrupt lands between any two calls', () => {
  it('a key pressed while a call runs stops the calls after it', async () => {
    let runs = 0;
    const ref: { agent?: Harness['agent'] } = {};
    // A tool that finishes at once, like a fast write: the key arrives while it runs.
    const tick: Tool = {
      name: 'tick',
      kind: 'read',
      description: 'counts',
      params: [],
      run: async () => {
        runs += 1;
        if (runs === 2) setImmediate(() => ref.agent?.send({ type: 'interrupt' }));
        return { ok: true, data: `tick ${runs}` };
      },
    };
    h = await createHarness({ extraTools: [tick], initialState: 'THINKING' });
    ref.agent = h.agent;
    h.server.push({
      kind: 'stream',
      content: [Array.from({ length: 10 }, () => '[TOOL] tick() [/TOOL]').join('\n')],
    });
    h.agent.start();
    await waitForStore(h.agent.store, (s) => s.machine === 'AWAITING_INPUT', 'the interrupt');
    await h.agent.idle();
    expect(runs).toBe(2);
  });
});
