/**
 * Issue 24.8: an edit or an overwrite shows, in the tool detail, the unified diff of what it
 * changed: coloured (added green, removed red, hunk headers blue), wrapped by display width
 * so CJK lines never spill past the edge, with the marker on every wrapped row.
 */
import React from 'react';
import { render } from 'ink-testing-library';
import { describe, expect, test } from 'vitest';
import { ToolDetail } from '../../components/ToolDetail.js';
import { detailRows, detailTitle } from '../../components/panes/toolRows.js';
import { displayWidth } from '../../components/text/wrap.js';
import type { ToolLogEntry } from '../../src/api/events.js';
import { unifiedDiff } from '../../src/diff/unifiedDiff.js';
import { plain, waitForFrame } from '../helpers/waitForFrame.js';

const before = '# 旅行计划\n第一天：东京塔\n第二天：浅草寺\n';
const after = `# 旅行计划\n第一天：东京塔\n第二天：${'富士山五合目'.repeat(6)}\n`;
const diff = unifiedDiff('计划.md', before, after);

const entry: ToolLogEntry = {
  callId: 'c1',
  turnId: 1,
  startedAt: 0,
  name: 'edit',
  args: ['计划.md', '浅草寺', '富士山五合目'],
  call: 'edit("计划.md", "浅草寺", "富士山五合目…")',
  status: 'ok',
  summary: 'edited 计划.md:3',
  full: 'Edited 计划.md: replaced 1 occurrence at line 3.',
  durationMs: 4,
  ...(diff.ok ? { diff: diff.text } : {}),
};

describe('the tool detail of an edit', () => {
  test('shows the diff, CJK rows within the width, each wrapped row still marked', () => {
    const rows = detailRows(entry, 40, 'en');
    const at = rows.findIndex((r) => r.text === 'Changes (unified diff)');
    expect(at).toBeGreaterThan(0);
    const shown = rows.slice(at + 1);
    expect(shown.slice(0, 6).map((r) => [r.text, r.tone])).toEqual([
      ['  --- a/计划.md', 'label'],
      ['  +++ b/计划.md', 'label'],
      ['  @@ -1,3 +1,3 @@', 'notice'],
      ['   # 旅行计划', 'plain'],
      ['   第一天：东京塔', 'plain'],
      ['  -第二天：浅草寺', 'error'],
    ]);
    const added = shown.filter((r) => r.tone === 'ok');
    expect(added.length).toBeGreaterThan(1);
    expect(added.every((r) => r.text.startsWith('  +'))).toBe(true);
    expect(rows.every((r) => displayWidth(r.text) <= 40)).toBe(true);
    expect(added.map((r) => r.text.slice(3)).join('')).toBe(`第二天：${'富士山五合目'.repeat(6)}`);
  });

  test('draws it within the width (the tones above are its colours: PaneRows)', async () => {
    const rows = detailRows(entry, 40, 'en');
    const r = render(
      <ToolDetail
        detail={{ title: detailTitle(entry, 'en'), rows }}
        width={40}
        height={rows.length + 1}
        offset={0}
        max={0}
      />,
    );
    const f = await waitForFrame(r.lastFrame, (x) => x.includes('浅草寺'));
    const lines = plain(f).split('\n');
    expect(lines).toContain('  -第二天：浅草寺');
    expect(lines).toContain('  +第二天：富士山五合目富士山五合目富士');
    expect(lines.every((l) => displayWidth(l) <= 40)).toBe(true);
    r.unmount();
  });
});
