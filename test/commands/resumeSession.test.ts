/**
 * `/resume ID` (what the picker's Enter sends): opens one of this folder's sessions by its
 * id or the start of it, shows its conversation, and the agent writes there from then on; an
 * unknown, ambiguous or current id gets a clear answer; a script's session opened by the
 * user becomes theirs. `/resume` alone still only resumes autonomy.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { matchSession } from '../../src/history/sessionChoices.js';
import type { SessionInfo } from '../../src/history/index.js';
import { SessionStore } from '../../src/history/index.js';
import { makeMessage } from '../../src/core/messages.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { waitForStore } from '../helpers/waitFor.js';

async function run(h: Harness, text: string): Promise<string> {
  const before = h.agent.store.getState().notices.length;
  const commandTurns = (): number =>
    h.agent.store.getState().traces.filter((t) => t.outcome === 'command').length;
  const done = commandTurns() + 1;
  h.agent.send({ type: 'submit', text });
  await waitForStore(h.agent.store, () => commandTurns() === done, text);
  await h.agent.idle();
  return h.agent.store
    .getState()
    .notices.slice(before)
    .map((n) => n.text)
    .join('\n');
}

describe('/resume ID', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('opens a session by id prefix, shows it, and the agent writes there', async () => {
    h = await createHarness();
    h.server.push({ kind: 'stream', content: 'hello [WAIT]' });
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'the trip to Lisbon' });
    await waitForStore(h.agent.store, (s) => s.messages.length === 2, 'reply');
    await h.agent.idle();
    const first = h.session.id;
    await run(h, '/new');
    const second = h.session.id;
    expect(h.agent.store.getState().messages).toHaveLength(0);

    // Ids share their date: a prefix both start with is ambiguous, a longer one is not.
    let common = 0;
    while (first[common] === second[common]) common += 1;
    expect(await run(h, `/resume ${first.slice(0, common)}`)).toMatch(
      /starts 2 session ids .*type more of the id/,
    );
    const opened = await run(h, `/resume ${first.slice(0, common + 1)}`);
    expect(opened).toContain(`Opened session ${first}`);
    expect(opened).toContain(`/resume ${second} goes back`);
    expect(h.session.id).toBe(first);
    expect(h.agent.store.getState().messages.map((m) => m.content)).toContain('the trip to Lisbon');
    h.server.push({ kind: 'stream', content: 'go on [WAIT]' });
    h.agent.send({ type: 'submit', text: 'and the hotel?' });
    const req = await h.server.waitForRequest(1);
    expect(JSON.stringify(req.body.messages)).toContain('the trip to Lisbon');

    expect(await run(h, `/resume ${first}`)).toContain(`Session ${first} is the one open now`);
    expect(await run(h, '/resume nope')).toContain(
      'No session of this folder has an id starting with "nope"',
    );
    expect(h.session.id).toBe(first);
  });

  it("a script's session the user opens becomes theirs", async () => {
    h = await createHarness();
    h.agent.start();
    const scripts = new SessionStore(path.join(h.home, 'data'), { kind: 'print' });
    const script = await scripts.create();
    script.append(makeMessage('user', 'nightly report'));
    script.close();
    expect(scripts.describe(script.id)?.kind).toBe('print');
    await run(h, `/resume ${script.id}`);
    expect(h.session.id).toBe(script.id);
    expect(scripts.describe(script.id)?.kind).toBe('interactive');
  });
});

describe('matchSession', () => {
  const info = (id: string, here: boolean): SessionInfo => ({
    id,
    dir: `/s/${id}`,
    createdAt: 0,
    updatedAt: 0,
    messageCount: 0,
    here,
    kind: 'interactive',
    ...(here ? {} : { workspace: '/elsewhere' }),
  });
  const list = [info('2026-12-05T09-aaa', true), info('2026-12-05T10-bbb', false)];

  it("names another folder's session only by its whole id, and refuses it", () => {
    expect(matchSession(list, '2026-12-05T10')).toEqual({ ok: false, why: 'none' });
    expect(matchSession(list, '2026-12-05T10-bbb')).toMatchObject({ ok: false, why: 'elsewhere' });
    expect(matchSession(list, '2026-12-05')).toMatchObject({ ok: true, session: list[0] });
  });
});
