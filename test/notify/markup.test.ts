/**
 * The attack: text the model writes (a [WAIT] question, the arguments of a call that needs
 * approval, a reminder) carries notification markup, a phishing link among it. A fake
 * `notify-send` on PATH records argv: the body must show as written, as plain text, with no
 * tag, no entity the server would decode, and no address a highlighter would make a link.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { attachNotifier } from '../../src/notify/attach.js';
import { notifySchema } from '../../src/config/notifySchema.js';
import type { AgentEvent, AgentListener } from '../../src/api/events.js';
import { plainBody } from '../../src/notify/bodyMarkup.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { waitForStore, waitUntil } from '../helpers/waitFor.js';
import { createFakeNotifier, type FakeNotifier } from './fakeNotifier.js';

const HOSTILE =
  '<a href="http://evil.example/login">sign in</a> <b>now</b> <img src=x> &amp; www.evil.example';

let h: Harness | undefined;
let fake: FakeNotifier | undefined;
afterEach(async () => {
  await h?.dispose();
  await fake?.dispose();
  h = fake = undefined;
});

/** What a markup-reading server shows for `body`, and whether any of it is a tag or a link. */
function asRendered(body: string): string {
  return body
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\u2060/g, '');
}
function expectPlain(body: string, shown: string): void {
  expect(body).not.toMatch(/[<>]/);
  // Every "&" starts one of the three escapes: nothing else is decoded.
  expect(body.replace(/&(amp|lt|gt);/g, '')).not.toContain('&');
  // No address a highlighter finds: no "scheme://", no "www.", no "host.tld/".
  expect(body).not.toMatch(/[a-z]:\/\/|www\.|[a-z0-9]\.[a-z]{2,}\//i);
  expect(asRendered(body)).toBe(shown);
}

async function lastBody(n: number): Promise<string> {
  const calls = await waitUntil(async () => {
    const all = (await fake!.calls()) as string[][];
    return all.length >= n ? all : undefined;
  }, `${n} notify-send calls`);
  return calls[n - 1]!.at(-1)!;
}

describe('notify-send bodies are plain text', () => {
  test('the escape itself: &, <, > and addresses', () => {
    expect(plainBody('a < b & c > d')).toBe('a &lt; b &amp; c &gt; d');
    expect(plainBody('see https://x.example/a')).toBe(
      'see https\u2060:\u2060/\u2060/x\u2060.example\u2060/a',
    );
    expect(plainBody('old.txt, 10:20, e.g. this')).toBe('old.txt, 10:20, e.g. this');
  });

  test('a [WAIT] question and an approval card from a real agent', async () => {
    // Writing asks first: the card quotes the call, its arguments chosen by the model.
    h = await createHarness({ settings: { approval: { write: 'ask' } } });
    fake = await createFakeNotifier();
    const { notifier } = attachNotifier(h.agent, {
      config: notifySchema.parse({}),
      env: fake.env,
      platform: 'linux',
      workspace: h.workspaceDir,
    });
    h.server.push(
      { kind: 'stream', content: `${HOSTILE} [WAIT]` },
      {
        kind: 'stream',
        content: `[TOOL] create("note.txt", "${HOSTILE.replace(/"/g, "'")}") [/TOOL]`,
      },
      { kind: 'stream', content: 'Done. [WAIT]' },
    );
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'go' });
    const wait = await lastBody(1);
    expectPlain(wait, HOSTILE);
    await waitForStore(h.agent.store, (s) => s.machine === 'AWAITING_INPUT', '[WAIT]');
    h.agent.send({ type: 'submit', text: 'yes' });
    await waitForStore(h.agent.store, (s) => s.approval !== undefined, 'the approval');
    const card = await lastBody(2);
    expect(card).toMatch(/^Approval needed: create/);
    expect(asRendered(card)).toContain(HOSTILE.replace(/"/g, "'"));
    expectPlain(card, asRendered(card));
    h.agent.send({ type: 'answer_approval', answer: 'no' });
    await h.agent.idle();
    await notifier.settled();
  });

  test("a user's reminder", async () => {
    fake = await createFakeNotifier();
    let listener: AgentListener | undefined;
    const agent = {
      subscribe: (l: AgentListener) => ((listener = l), () => {}),
      send: () => {},
    };
    const { notifier } = attachNotifier(agent, {
      config: notifySchema.parse({}),
      env: fake.env,
      platform: 'linux',
    });
    const due: AgentEvent = {
      type: 'reminders_due',
      reminders: [{ id: 1, at: 0, what: HOSTILE, by: 'user' }],
    };
    listener!(due);
    expectPlain(await lastBody(1), `Reminder: ${HOSTILE}`);
    await notifier.settled();
  });
});
