/** The journal on the screen: the status bar's files-changed count and the tool log's undo hint. */
import React from 'react';
import { render } from 'ink-testing-library';
import { describe, expect, test } from 'vitest';
import { StatusBar } from '../../components/StatusBar.js';
import { detailRows, toolRow } from '../../components/panes/toolRows.js';
import type { ToolLogEntry } from '../../src/api/events.js';
import { createFakeController } from '../helpers/fakeController.js';
import { waitForFrame } from '../helpers/waitForFrame.js';

const entry: ToolLogEntry = {
  callId: 'c1',
  turnId: 1,
  name: 'edit',
  args: ['notes.md', 'a', 'b'],
  call: 'edit("notes.md", "a", "b")',
  status: 'ok',
  summary: 'edited notes.md:1',
  full: 'Edited notes.md: replaced 1 occurrence at line 1.',
  undo: '/undo notes.md',
  durationMs: 3,
  startedAt: 0,
};

describe('the change journal on screen', () => {
  test('the status bar counts the files the agent changed, once there are any', async () => {
    const c = createFakeController({ machine: 'THINKING' });
    const r = render(<StatusBar store={c.store} width={140} workspace="/srv/notes" />);
    await waitForFrame(r.lastFrame, (x) => x.includes('Thinking'));
    expect(r.lastFrame()).not.toContain('files changed');
    c.emit({ type: 'files_changed', count: 3 });
    const f = await waitForFrame(r.lastFrame, (x) => x.includes('3 files changed'));
    expect(f.split('\n')[0]).toContain('│ 3 files changed');
    r.unmount();
  });

  test("a change's tool-log line and its detail view say how to undo it", () => {
    expect(toolRow(entry, 100, false, '').text).toContain(
      'edited notes.md:1 · undo: /undo notes.md',
    );
    expect(detailRows(entry, 80, 'en').map((row) => row.text)).toContain('undo: /undo notes.md');
    expect(detailRows(entry, 80, 'zh').map((row) => row.text)).toContain('撤销：/undo notes.md');
    const { undo: _undo, ...plain } = entry;
    expect(toolRow(plain, 100, false, '').text).not.toContain('undo');
  });
});
