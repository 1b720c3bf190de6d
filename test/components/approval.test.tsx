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
    h = await renderApp({ c });
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
    h = await renderApp({ c });
    h.press(KEY.f1);
    await h.waitFor((x) => x.includes('Help: keys and commands'));
    askApproval(c);
    await h.waitFor((x) => x.includes('Approval needed') && !x.includes('Help: keys and commands'));
    h.press('a');
    await h.waitForCalls(1);
    expect(c.calls).toEqual([{ method: 'answerApproval', answer: 'always' }]);
  });
});
