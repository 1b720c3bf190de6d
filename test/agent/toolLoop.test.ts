import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { waitForStore } from '../helpers/waitFor.js';

describe('the tool loop', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('runs ls and read in one reply, sends both results back, and stops on [WAIT]', async () => {
    h = await createHarness();
    const content = 'first line of the draft\nsecond line, with a comma (and parentheses)\n';
    await writeFile(path.join(h.workspaceDir, 'notes, draft (1).txt'), content);
    await writeFile(path.join(h.workspaceDir, 'other.md'), '# other\n');
    h.server.push(
      {
        kind: 'stream',
        reasoning: 'Let me look around first.',
        content: 'Looking.\n[TOOL] ls(".") [/TOOL]\n[TOOL] read("notes, draft (1).txt") [/TOOL]',
      },
      { kind: 'stream', content: 'Your draft has two lines. Want me to tidy it? [WAIT]' },
    );
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'look around my workspace' });

    const second = await h.server.waitForRequest(1);
    const msgs = second.body.messages as { role: string; content: string }[];
    const results = msgs.at(-1)!;
    expect(results.role).toBe('user');
    expect(results.content).toContain('ls(".")');
    expect(results.content).toContain('notes, draft (1).txt');
    expect(results.content).toContain('other.md');
    expect(results.content).toContain('read("notes, draft (1).txt")');
    expect(results.content).toContain('second line, with a comma (and parentheses)');

    await waitForStore(
      h.agent.store,
      (s) => s.machine === 'AWAITING_INPUT' && !s.streaming,
      'the run to stop on [WAIT]',
    );
    await h.agent.idle();
    expect(h.server.requests).toHaveLength(2);
    const log = h.agent.store.getState().toolLog;
    expect(log.map((e) => [e.call, e.status])).toEqual([
      ['ls(".")', 'ok'],
      ['read("notes, draft (1).txt")', 'ok'],
    ]);
    // Persisted in order: user, assistant (with reasoning, saved before its tools ran), one
    // result per call as each finished, assistant.
    const roles = h.session.messages().map((m) => m.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(h.session.messages()[1]!.calls).toBe(2);
    expect(h.session.messages().map((m) => m.callIndex)).toEqual([
      undefined,
      undefined,
      0,
      1,
      undefined,
    ]);
    expect(h.session.messages()[1]!.reasoning).toBe('Let me look around first.');
  });

  it('keeps thinking on its own until the model writes [WAIT]', async () => {
    h = await createHarness({ initialState: 'THINKING' });
    h.server.push(
      { kind: 'stream', content: 'Exploring.' },
      { kind: 'stream', content: 'Still exploring.' },
      { kind: 'stream', content: 'Done for now. [WAIT]' },
    );
    h.agent.start();
    await waitForStore(h.agent.store, (s) => s.machine === 'AWAITING_INPUT', '[WAIT]');
    await h.agent.idle();
    expect(h.server.requests).toHaveLength(3);
    // Autonomous turns end on the assistant, so each gets a user-role cue as the last message.
    const last = h.server.requests[1]!.body.messages.at(-1);
    expect(last.role).toBe('user');
    expect(last.content).toContain('Autonomous cycle');
  });

  it('a malformed call becomes an error result the model sees', async () => {
    h = await createHarness();
    h.server.push(
      { kind: 'stream', content: '[TOOL] read("unterminated) [/TOOL]' },
      { kind: 'stream', content: 'oops [WAIT]' },
    );
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'read something' });
    const second = await h.server.waitForRequest(1);
    const results = second.body.messages.at(-1).content as string;
    expect(results).toMatch(/error/i);
    expect(results).toMatch(/unterminated|string/i);
    await waitForStore(h.agent.store, (s) => s.machine === 'AWAITING_INPUT', '[WAIT]');
  });
});
