import React from 'react';
import { render } from 'ink-testing-library';
import { describe, expect, test } from 'vitest';
import { ConfirmSession } from '../../components/ConfirmSession.js';
import { waitFor, waitForFrame } from '../helpers/waitForFrame.js';

const session = {
  id: '2026-12-01T10-00-00-000-abc',
  sessionWorkspace: '/home/ada/A',
  workspace: '/home/ada/B',
};

describe('--session from another folder, in the full-screen app', () => {
  for (const [key, yes] of [
    ['y', true],
    ['n', false],
    ['\x1b', false],
  ] as const) {
    test(`shows both folders and answers ${yes ? 'yes' : 'no'} on ${JSON.stringify(key)}`, async () => {
      const answers: boolean[] = [];
      const r = render(
        <ConfirmSession session={session} lang="en" onAnswer={(a) => answers.push(a)} />,
      );
      const frame = await waitForFrame(r.lastFrame, (f) => f.includes('Continue it here anyway?'));
      expect(frame).toContain('/home/ada/A');
      expect(frame).toContain('/home/ada/B');
      expect(frame).toContain(session.id);
      r.stdin.write(key);
      await waitFor(() => answers.length > 0, 'an answer');
      expect(answers).toEqual([yes]);
      r.unmount();
    });
  }

  test('other keys do not answer', async () => {
    const answers: boolean[] = [];
    const r = render(
      <ConfirmSession session={session} lang="zh" onAnswer={(a) => answers.push(a)} />,
    );
    await waitForFrame(r.lastFrame, (f) => f.includes('仍然在这里继续吗'));
    r.stdin.write('x');
    r.stdin.write('y');
    await waitFor(() => answers.length > 0, 'an answer');
    expect(answers).toEqual([true]);
    r.unmount();
  });
});
