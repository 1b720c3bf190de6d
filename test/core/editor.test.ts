/**
 * Which editor `/memory edit` runs: $VISUAL, then $EDITOR (with its arguments), then nano,
 * then vi from the PATH; with none, a refusal that names the fix. A real spawn of a missing
 * program is refused the same way, and a real script gets the file and the terminal lent.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseEditor, editFile, onPath } from '../../src/core/editor.js';

describe('the editor for /memory edit', () => {
  let dir: string | undefined;
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('prefers $VISUAL, then $EDITOR with its arguments, then nano, then vi', () => {
    const all = (): boolean => true;
    expect(chooseEditor({ VISUAL: 'code --wait', EDITOR: 'vim' }, all)).toEqual({
      command: 'code',
      args: ['--wait'],
      from: 'VISUAL',
    });
    expect(chooseEditor({ VISUAL: '  ', EDITOR: 'vim' }, all)).toMatchObject({
      command: 'vim',
      from: 'EDITOR',
    });
    expect(chooseEditor({}, all)).toMatchObject({ command: 'nano', from: 'fallback' });
    expect(chooseEditor({}, (name) => name === 'vi')).toMatchObject({ command: 'vi' });
    expect(chooseEditor({}, () => false)).toBeUndefined();
  });

  it('refuses with the fix when there is no editor, and never lends the terminal then', () => {
    let lent = 0;
    const out = editFile('/tmp/x.md', {
      env: {},
      found: () => false,
      lend: (meanwhile) => (lent++, meanwhile()),
    });
    expect(out).toEqual({ ok: false, problem: expect.stringContaining('set $EDITOR') as string });
    expect(lent).toBe(0);
  });

  it('a missing $EDITOR program is refused with its name, where it came from and the fix', () => {
    const out = editFile('/tmp/x.md', {
      env: { EDITOR: 'no-such-editor-here --flag', PATH: '/nonexistent' },
      lend: (meanwhile) => meanwhile(),
    });
    expect(out.ok).toBe(false);
    if (!out.ok) {
      expect(out.problem).toContain('"no-such-editor-here --flag" (from $EDITOR)');
      expect(out.problem).toContain('ENOENT');
      expect(out.problem).toContain('set $EDITOR');
    }
  });

  it('runs the editor on the file while the terminal is lent, and returns its exit code', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'cogito-editor-'));
    const script = path.join(dir, 'ed.sh');
    const file = path.join(dir, 'memory.md');
    writeFileSync(script, `#!/bin/sh\necho "- edited" >> "$1"\nexit 3\n`, { mode: 0o755 });
    writeFileSync(file, '');
    const order: string[] = [];
    const out = editFile(file, {
      env: { EDITOR: script, PATH: process.env.PATH ?? '' },
      lend: (meanwhile) => {
        order.push('aside');
        const r = meanwhile();
        order.push('back');
        return r;
      },
    });
    expect(out).toEqual({ ok: true, editor: script, code: 3 });
    expect(order).toEqual(['aside', 'back']);
    expect(readFileSync(file, 'utf8')).toBe('- edited\n');
    expect(onPath({ PATH: dir })('ed.sh')).toBe(true);
    expect(onPath({ PATH: dir })('memory.md')).toBe(false);
  });
});
