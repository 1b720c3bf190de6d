import React from 'react';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, test } from 'vitest';
import { ApprovalPrompt } from '../../components/ApprovalPrompt.js';
import { askApproval, createFakeController } from '../helpers/fakeController.js';
import { KEY, renderApp, type Harness } from '../helpers/renderApp.js';
import { waitForFrame } from '../helpers/waitForFrame.js';

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const request = {
  id: 7,
  tool: 'delete',
  kind: 'destructive' as const,
  call: 'delete("old.txt")',
  reason: 'destructive tools ask first (approval.destructive = ask)',
};

describe('the approval prompt', () => {
  test('shows the call, the kind, the reason and the keys', async () => {
    const r = render(<ApprovalPrompt request={request} width={90} height={4} />);
    const f = await waitForFrame(r.lastFrame, (x) => x.includes('Approval needed'));
    const lines = f.split('\n');
    expect(lines[0]).toMatch(/^━━ ⚠ Approval needed ━+ Kind: destructive ━━$/);
    expect(lines[1]).toBe('  delete("old.txt")');
    expect(lines[2]).toBe(
      '  Why it asks: destructive tools ask first (approval.destructive = ask)',
    );
    expect(lines[3]).toBe('Allow delete? y = yes, n = no, a = always for this run');
    r.unmount();
  });

  test('shrinks on small screens but always shows the question', async () => {
    for (const height of [2, 1]) {
      const r = render(<ApprovalPrompt request={request} width={40} height={height} />);
      const f = await waitForFrame(r.lastFrame, (x) => x.includes('Allow delete?'));
      expect(f.split('\n')).toHaveLength(height);
      r.unmount();
    }
  });

  test('appears on the screen when the machine waits, and goes with the answer', async () => {
    const c = createFakeController({ machine: 'THINKING' });
    h = await renderApp({ c, approvalDelayMs: 0 });
    await h.waitFor((f) => !f.includes('Approval needed'));
    askApproval(c, { call: 'move("a.txt", "b.txt")', tool: 'move' });
    const f = await h.waitFor((x) => x.includes('Approval needed'));
    expect(f).toContain('move("a.txt", "b.txt")');
    expect(f).toContain('y allow · n/Esc deny · a always');
    h.press('n');
    await h.waitFor((x) => !x.includes('Approval needed'));
    expect(c.calls).toEqual([{ method: 'answerApproval', answer: 'no' }]);
  });

  test('closes an open overlay so the answer keys reach it', async () => {
    const c = createFakeController({ machine: 'THINKING' });
    h = await renderApp({ c, approvalDelayMs: 0 });
    h.press(KEY.f1);
    await h.waitFor((x) => x.includes('Help: keys and commands'));
    askApproval(c);
    await h.waitFor((x) => x.includes('Approval needed') && !x.includes('Help: keys and commands'));
    h.press('a');
    await h.waitForCalls(1);
    expect(c.calls).toEqual([{ method: 'answerApproval', answer: 'always' }]);
  });
});

describe('stray keys and the approval prompt', () => {
  /** A clock the test moves by hand: no test waits for real time. */
  const clock = (): { now: () => number; advance(ms: number): void } => {
    let t = 1_000;
    return { now: () => t, advance: (ms) => void (t += ms) };
  };
  const inputLine = (f: string): string => f.split('\n').find((l) => l.startsWith('› ')) ?? '';

  test('a letter typed as the prompt appears goes on into the message, not to the prompt', async () => {
    const c = createFakeController({ machine: 'AWAITING_INPUT' });
    const t = clock();
    h = await renderApp({ c, now: t.now });
    for (const ch of 'that is ') {
      h.type(ch);
      t.advance(60);
    }
    await h.waitFor((f) => inputLine(f).includes('that is'));
    askApproval(c);
    await h.waitFor((f) => f.includes('Approval needed'));
    for (const ch of 'all') {
      t.advance(60);
      h.type(ch);
    }
    await h.waitFor((f) => inputLine(f).includes('that is all'));
    expect(c.calls).toEqual([]);
    expect(c.store.getState().machine).toBe('AWAITING_APPROVAL');
    // The user stops, reads the prompt, and answers.
    t.advance(500);
    h.press('y');
    await h.waitForCalls(1);
    expect(c.calls).toEqual([{ method: 'answerApproval', answer: 'yes' }]);
    expect(inputLine(await h.waitFor((f) => !f.includes('Approval needed')))).toContain(
      'that is all',
    );
  });

  test('keys are armed only after the prompt has shown a while and typing has stopped', async () => {
    const c = createFakeController({ machine: 'THINKING' });
    const t = clock();
    h = await renderApp({ c, now: t.now, approvalDelayMs: 400 });
    askApproval(c);
    await h.waitFor((f) => f.includes('Approval needed'));
    // At once: Esc waits, a letter is typed.
    h.press(KEY.esc);
    // A lone Esc is held by Ink until the event loop turns (else it and the next key would be
    // Alt+N): let it turn once, as it would between two key presses.
    await new Promise((r) => setImmediate(r));
    h.press('n');
    await h.waitFor((f) => inputLine(f).includes('n'));
    expect(c.calls).toEqual([]);
    // Long after the prompt appeared, but right after typing: still typed.
    t.advance(1_000);
    h.type('o');
    t.advance(100);
    h.press('a');
    await h.waitFor((f) => inputLine(f).includes('noa'));
    expect(c.calls).toEqual([]);
    // A pause in typing as long as the delay arms them: Esc answers no.
    t.advance(400);
    h.press(KEY.esc);
    await h.waitForCalls(1);
    expect(c.calls).toEqual([{ method: 'answerApproval', answer: 'no' }]);
  });

  test('answer letters in a run of keys read together are typed while the prompt is new', async () => {
    const c = createFakeController({ machine: 'THINKING' });
    const t = clock();
    h = await renderApp({ c, now: t.now, approvalDelayMs: 400 });
    askApproval(c);
    await h.waitFor((f) => f.includes('Approval needed'));
    t.advance(100);
    h.press('any'); // one read, split into keys, each resolved: none may answer yet
    await h.waitFor((f) => inputLine(f).includes('any'));
    expect(c.calls).toEqual([]);
    expect(c.store.getState().machine).toBe('AWAITING_APPROVAL');
  });
});
