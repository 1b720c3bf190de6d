import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { waitForStore } from '../helpers/waitFor.js';

const slow = (word: string) => ({
  kind: 'stream' as const,
  content: Array.from({ length: 300 }, (_, i) => `${word}${i} `),
  chunkDelayMs: 10,
});

describe('what the user sends mid-turn', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('is stored after the reply it cut off, and the next request does not say the user is away', async () => {
    h = await createHarness({ initialState: 'THINKING' });
    h.server.push(slow('w'), { kind: 'stream', content: 'Here are the files. [WAIT]' });
    h.agent.start();
    await waitForStore(h.agent.store, (s) => s.liveReply.includes('w3 '), 'streaming');
    h.agent.send({ type: 'submit', text: 'please stop and list files' });
    await waitForStore(
      h.agent.store,
      (s) => s.machine === 'AWAITING_INPUT' && !s.streaming && s.messages.length === 3,
      'the answer',
    );
    const stored = h.session
      .messages()
      .map((m) => [m.role, m.content.slice(0, 12), m.interrupted === true]);
    expect(stored).toEqual([
      ['assistant', 'w0 w1 w2 w3 ', true],
      ['user', 'please stop ', false],
      ['assistant', 'Here are the', false],
    ]);
    const sent = h.server.requests[1]!.body.messages as { role: string; content: string }[];
    expect(sent.at(-1)).toEqual({ role: 'user', content: 'please stop and list files' });
    // The earlier autonomous turn's note stays where it was (append-only requests); the
    // request ends on the user's words, with no note saying they are away.
    expect(JSON.stringify(sent.at(-1))).not.toContain('The user is not here');
  });

  it('while paused, a follow-up stops the answer still streaming and is answered after it', async () => {
    h = await createHarness({ initialState: 'PAUSED' });
    h.server.push(slow('a'), { kind: 'stream', content: 'second answer' });
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'first' });
    await waitForStore(
      h.agent.store,
      (s) => s.liveReply.includes('a3 '),
      'the first answer streaming',
    );
    h.agent.send({ type: 'submit', text: 'second' });
    await waitForStore(
      h.agent.store,
      (s) => s.messages.some((m) => m.content === 'second answer'),
      'the second answer',
    );
    await h.agent.idle();
    expect(h.agent.state).toBe('PAUSED');
    expect(h.session.messages().map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(h.session.messages()[1]!.interrupted).toBe(true);
    expect(h.server.requests[1]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'second' });
    expect(h.server.requests).toHaveLength(2);
  });

  it('a command and a message sent together both get their turn, in order', async () => {
    h = await createHarness();
    h.server.push({ kind: 'stream', content: 'hello there [WAIT]' });
    h.agent.start();
    h.agent.send({ type: 'submit', text: '/tools' });
    h.agent.send({ type: 'submit', text: 'hi' });
    await waitForStore(
      h.agent.store,
      (s) => s.messages.some((m) => m.content === 'hello there [WAIT]'),
      'the answer',
    );
    await h.agent.idle();
    expect(h.agent.store.getState().notices.some((n) => n.text.startsWith('Tools'))).toBe(true);
    expect(h.session.messages().map((m) => m.content)).toEqual(['hi', 'hello there [WAIT]']);
  });

  it('stopping an approval asked while paused keeps autonomy off', async () => {
    h = await createHarness({ initialState: 'PAUSED' });
    await writeFile(path.join(h.workspaceDir, 'old.txt'), 'old');
    h.server.push({ kind: 'stream', content: '[TOOL] delete("old.txt") [/TOOL]' });
    h.server.setDefault({ kind: 'stream', content: 'answered' });
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'clean up' });
    await waitForStore(h.agent.store, (s) => s.machine === 'AWAITING_APPROVAL', 'the question');
    h.agent.send({ type: 'interrupt' });
    expect(h.agent.state).toBe('PAUSED');
    await h.agent.idle();
    h.agent.send({ type: 'submit', text: 'just answer' });
    await waitForStore(
      h.agent.store,
      (s) => s.messages.some((m) => m.content === 'answered'),
      'the answer',
    );
    await h.agent.idle();
    expect(h.agent.state).toBe('PAUSED');
    // The deleted call was never made, and no autonomous turn followed.
    expect(h.server.requests).toHaveLength(2);
  });
});
