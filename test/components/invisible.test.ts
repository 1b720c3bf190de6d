/**
 * Issue 23.8: bidi controls and zero-width characters reach the screen only as visible
 * marks (`⟨U+202E⟩`), through the one `sanitize` every pane, card and path uses.
 */
import { describe, expect, test } from 'vitest';
import { toolRow, detailRows } from '../../components/panes/toolRows.js';
import { sanitize, showInvisible } from '../../components/text/sanitize.js';
import type { ToolLogEntry } from '../../src/api/events.js';

describe('invisible characters are shown', () => {
  test('bidi overrides, isolates and marks; zero-width spaces and joiners; BOM', () => {
    expect(sanitize('.git\u200b/hooks')).toBe('.git⟨U+200B⟩/hooks');
    // "evil.exe" spelled with a right-to-left override to read as "exe.live".
    expect(sanitize('\u202eexe.live')).toBe('⟨U+202E⟩exe.live');
    expect(showInvisible('a\u2066b\u2069c\u200fd\u061ce')).toBe(
      'a⟨U+2066⟩b⟨U+2069⟩c⟨U+200F⟩d⟨U+061C⟩e',
    );
    expect(showInvisible('x\u200cy\u200dz\u2060w\ufeffv\u00adu')).toBe(
      'x⟨U+200C⟩y⟨U+200D⟩z⟨U+2060⟩w⟨U+FEFF⟩v⟨U+00AD⟩u',
    );
  });

  test('emoji sequences joined by U+200D stay one picture; ordinary text is unchanged', () => {
    const family = '👨\u200d👩\u200d👧';
    expect(sanitize(family)).toBe(family);
    expect(sanitize('👍🏽\u200d👍')).toBe('👍🏽\u200d👍');
    expect(sanitize('京都 café — naïve')).toBe('京都 café — naïve');
  });

  test('the tool log shows them in the call, the detail and the undo hint', () => {
    const entry: ToolLogEntry = {
      callId: 'c',
      turnId: 1,
      startedAt: 0,
      name: 'create',
      args: ['.git\u200b/hooks/pre-commit', 'x'],
      call: 'create(".git\u200b/hooks/pre-commit", "x")',
      status: 'ok',
      summary: 'created',
      undo: '/undo .git\u200b/hooks/pre-commit',
    };
    const row = toolRow(entry, 120, false, '·').text;
    expect(row).toContain('.git⟨U+200B⟩/hooks');
    expect(row).toContain('/undo .git⟨U+200B⟩/hooks');
    const detail = detailRows(entry, 80, 'en').map((r) => r.text);
    expect(detail.join('\n')).not.toContain('\u200b');
    expect(detail.filter((t) => t.includes('.git⟨U+200B⟩/hooks')).length).toBeGreaterThanOrEqual(3);
  });
});
