/**
 * Issue #42 on a fake clock (the scheduler's, the wake floor's and the question's timers), the
 * scripted server and real files: "nothing to do" is a rest, not a question, and a question the
 * agent asked on its own does not end the watch forever.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentSettings } from '../../src/agent/agent.js';
import type { Activity } from '../../src/api/activity.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { FakeClock } from '../helpers/fakeClock.js';

const MIN = 60_000;
const REST = 'I looked around the folder. Nothing needs doing right now.';
const ASK = 'I found three scans. Should I sort them into folders by year?\n[WAIT]';

describe('resting and waiting (#42)', () => {
  let h: Harness;
  let clock: FakeClock;
  afterEach(async () => h?.dispose());

  async function start(settings: Partial<AgentSettings>, replies: string[]) {
    clock = new FakeClock();
    h = await createHarness({
      initialState: 'THINKING',
      settings: {
        thinkIntervalMs: 3000,
        maxIntervalMs: 30 * MIN,
        changeWakes: { minIntervalMs: 0, maxPerHour: 100 },
        ...settings,
      },
      alwaysOn: { timers: clock, idleSkip: true },
    });
    for (const content of replies) h.server.push({ kind: 'stream', content });
    h.server.setDefault({ kind: 'stream', content: REST });
    h.agent.start();
    await advance(0);
  }
  const advance = (ms: number) => clock.advance(ms, () => h.agent.idle());
  const activity = (): Activity | undefined => h.agent.store.getState().activity;
  const lastNote = (i: number) => JSON.stringify(h.server.requests[i]!.body.messages.at(-1));
  async function arrive(name: string) {
    await writeFile(path.join(h.workspaceDir, name), name);
    // What the watcher would report (a real watcher cannot follow a fake clock).
    h.agent.wakeForChanges({ created: [name], modified: [], removed: [] });
    await advance(0);
  }

  it('a model done for now rests at zero requests until a file arrives, and says so', async () => {
    await start({}, []);
    expect(h.server.requests).toHaveLength(1);
    expect(h.agent.state).toBe('THINKING');
    await advance(2 * 60 * MIN);
    expect(h.server.requests).toHaveLength(1);
    expect(activity()).toMatchObject({ state: 'resting' });
    expect(activity()).not.toHaveProperty('nextLookAt');
    await arrive('scan-1.pdf');
    expect(h.server.requests).toHaveLength(2);
    expect(lastNote(1)).toMatch(/workspace changed.*created: scan-1\.pdf/);
  });

  it('an autonomous question holds until watch.resumeAfterWaitMs, then a change wakes a look and the question stays open', async () => {
    await start({ resumeAfterWaitMs: 30 * MIN }, [ASK]);
    const asked = clock.now();
    expect(h.agent.state).toBe('AWAITING_INPUT');
    expect(activity()).toMatchObject({
      state: 'waiting',
      since: asked,
      question: {
        text: 'I found three scans. Should I sort them into folders by year?',
        at: asked,
      },
      watchFrom: asked + 30 * MIN,
    });
    // A change within the half hour does not interrupt the question.
    await advance(5 * MIN);
    await arrive('scan-1.pdf');
    await advance(20 * MIN);
    expect(h.server.requests).toHaveLength(1);
    // At the half hour the change that waited is looked at; the question stays open.
    await advance(5 * MIN);
    expect(h.server.requests).toHaveLength(2);
    expect(lastNote(1)).toMatch(/created: scan-1\.pdf/);
    expect(lastNote(1)).toMatch(/has not answered your question of .* yet; it stays open/);
    expect(h.agent.state).toBe('AWAITING_INPUT');
    expect(activity()).toMatchObject({ state: 'waiting', since: asked, question: { at: asked } });
    // Watching now: the next change is looked at at once, and nothing is spent in between.
    await advance(60 * MIN);
    expect(h.server.requests).toHaveLength(2);
    await arrive('scan-2.pdf');
    expect(h.server.requests).toHaveLength(3);
    expect(h.agent.state).toBe('AWAITING_INPUT');
    // The user's answer is the answer to the question, and names all that arrived since.
    h.agent.send({ type: 'submit', text: 'Yes, by year please.' });
    await advance(0);
    expect(h.server.requests).toHaveLength(4);
    const answer = JSON.stringify(h.server.requests[3]!.body.messages.slice(-2));
    expect(answer).toContain('Yes, by year please.');
    expect(answer).toMatch(/answers your question of .*Should I sort them/);
    expect(answer).toMatch(
      /Arrived in the workspace since you asked: created: scan-1\.pdf, scan-2\.pdf/,
    );
    expect(activity()?.question).toBeUndefined();
  });

  it('a [WAIT] that answered the user waits for the user, however long and whatever changes', async () => {
    await start({ resumeAfterWaitMs: 30 * MIN }, [REST, 'Which folder do you mean?\n[WAIT]']);
    h.agent.send({ type: 'submit', text: 'Tidy my folder.' });
    await advance(0);
    expect(h.agent.state).toBe('AWAITING_INPUT');
    expect(activity()).toMatchObject({
      state: 'waiting',
      question: { text: 'Which folder do you mean?' },
    });
    expect(activity()).not.toHaveProperty('watchFrom');
    const before = h.server.requests.length;
    await advance(2 * 60 * MIN);
    await arrive('late.txt');
    await advance(60 * MIN);
    expect(h.server.requests).toHaveLength(before);
  });

  it('watch.resumeAfterWaitMs 0 keeps the question waiting for the user alone', async () => {
    await start({ resumeAfterWaitMs: 0 }, [ASK]);
    await advance(2 * 60 * MIN);
    await arrive('scan-1.pdf');
    await advance(60 * MIN);
    expect(h.server.requests).toHaveLength(1);
    expect(h.agent.state).toBe('AWAITING_INPUT');
    // The answer still carries what arrived meanwhile (the note it had before #42).
    h.agent.send({ type: 'submit', text: 'No thanks.' });
    await advance(0);
    expect(lastNote(1)).toMatch(/created: scan-1\.pdf/);
  });
});
