import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentSettings } from '../../src/agent/agent.js';
import { maxLooksWithin } from '../../src/scheduler/pacing.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import type { Step } from '../helpers/scriptedServer.js';
import { waitForStore, waitUntil } from '../helpers/waitFor.js';

/** Real time, real files, a real watcher: the agent rests, and the workspace wakes it. */
describe('wake-ups on workspace changes (real time)', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  async function resting(
    settings: Partial<AgentSettings> = { thinkIntervalMs: 300, maxIntervalMs: 30 * 60_000 },
    first: Step[] = [],
  ) {
    h = await createHarness({
      initialState: 'THINKING',
      settings,
      alwaysOn: { watch: { debounceMs: 100 }, idleSkip: true },
    });
    // Every look answers "nothing new" unless a test pushes other replies first.
    h.server.setDefault({ kind: 'stream', content: 'Nothing new.' });
    h.server.push(...first);
    h.agent.start();
    await h.agent.watching();
  }

  it('a file created in the workspace starts a turn whose request names it within 2 s', async () => {
    await resting();
    await waitForStore(h.agent.store, (s) => s.ledger.length === 1, 'the first look');
    const created = performance.now();
    await writeFile(path.join(h.workspaceDir, 'report.md'), '# new');
    const req = await h.server.waitForRequest(1, 2000);
    expect(req.receivedAt - created).toBeLessThan(2000);
    expect(JSON.stringify(req.body.messages.at(-1))).toMatch(
      /workspace changed.*created: report\.md/,
    );
    await waitForStore(h.agent.store, (s) => s.ledger.length === 2, 'the change turn');
    expect(h.agent.store.getState().ledger[1]!.reason).toBe('change');
  });

  it("a timed look due before the watcher's batch leaves the change to the watcher's wake, which names it", async () => {
    // Looks every 300 ms, a batch only 1.5 s after a change: the looks come first.
    h = await createHarness({
      initialState: 'THINKING',
      settings: { thinkIntervalMs: 300, maxIntervalMs: 300 },
      alwaysOn: { watch: { debounceMs: 1500 }, idleSkip: true },
    });
    h.server.setDefault({ kind: 'stream', content: 'Nothing new.' });
    h.agent.start();
    await h.agent.watching();
    await waitForStore(h.agent.store, (s) => s.ledger.length === 1, 'the first look');
    await writeFile(path.join(h.workspaceDir, 'late.md'), '# new');
    const req = await h.server.waitForRequest(1, 10_000);
    expect(JSON.stringify(req.body.messages.at(-1))).toMatch(/created: late\.md/);
    await waitForStore(h.agent.store, (s) => s.ledger.length === 2, 'the change turn');
    expect(h.agent.store.getState().ledger[1]!.reason).toBe('change');
  });

  it("the agent's own writes do not wake it; an outside change right after does", async () => {
    await resting(undefined, [
      { kind: 'stream', content: 'Writing notes.\n[TOOL] create("mine.txt", "my notes") [/TOOL]' },
      { kind: 'stream', content: 'Done for now.' },
    ]);
    // The write and the reply after its result (one turn, two requests), then a "nothing
    // new" turn: now resting for 30 s.
    await waitForStore(h.agent.store, (s) => s.ledger.length === 2, 'the write and a rest');
    expect(h.agent.store.getState().ledger[0]!.files).toEqual(['mine.txt']);
    expect(h.server.requests).toHaveLength(3);
    await writeFile(path.join(h.workspaceDir, 'theirs.txt'), 'from the user');
    const req = await h.server.waitForRequest(3, 2000);
    const note = JSON.stringify(req.body.messages.at(-1));
    expect(note).toMatch(/created: theirs\.txt/);
    expect(note).not.toMatch(/mine\.txt/);
    // No turn was started by the agent's own write.
    expect(h.agent.store.getState().ledger.map((r) => r.reason)).toEqual(['timer', 'timer']);
  });

  it('.git, node_modules and .cogitoignore patterns do not wake it', async () => {
    // No wake-up floor here: the ignore file's own change and the real one come 1 s apart.
    await resting({
      thinkIntervalMs: 300,
      maxIntervalMs: 30 * 60_000,
      changeWakes: { minIntervalMs: 0, maxPerHour: 100 },
    });
    await writeFile(path.join(h.workspaceDir, '.cogitoignore'), '*.log\n');
    // The ignore file itself is a change: one turn for it, then rest.
    await waitForStore(h.agent.store, (s) => s.ledger.length >= 1, 'the first look');
    const before = h.server.requests.length;
    await writeFile(path.join(h.workspaceDir, 'build.log'), 'noise');
    await mkdir(path.join(h.workspaceDir, '.git'), { recursive: true });
    await writeFile(path.join(h.workspaceDir, '.git', 'HEAD'), 'ref');
    await mkdir(path.join(h.workspaceDir, 'node_modules', 'x'), { recursive: true });
    await writeFile(path.join(h.workspaceDir, 'node_modules', 'x', 'i.js'), '1');
    await writeFile(path.join(h.workspaceDir, 'real.md'), 'signal');
    const req = await waitUntil(
      () => {
        return h.server.requests.find((r) => JSON.stringify(r.body).includes('real.md'));
      },
      'the change turn',
      2000,
    );
    expect(JSON.stringify(req.body.messages.at(-1))).not.toMatch(/build\.log|\.git|node_modules/);
    expect(h.server.requests.length).toBeGreaterThan(before);
  });

  it('"nothing new" with thinkIntervalMs 300 for 20 s of real time: within the pacing table', async () => {
    const settings = { thinkIntervalMs: 300, maxIntervalMs: 30 * 60_000 };
    await resting(settings);
    const start = performance.now();
    // Polls the request count until 20 s have passed; fails early if the table is broken.
    await waitUntil(
      () => {
        expect(h.server.requests.length).toBeLessThanOrEqual(maxLooksWithin(20_000, settings));
        return performance.now() - start >= 20_000;
      },
      '20 s of idling',
      25_000,
    );
    expect(h.server.requests.length).toBe(1);
  }, 30_000);
});
