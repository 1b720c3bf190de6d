/**
 * Notices the agent shows by itself are in the screen's language: the watcher's entry cap
 * (the real watcher on a real folder bigger than its cap), the crash-recovery notice and a
 * broken reminders file (a real file holding no JSON).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { crashNotice } from '../../src/journal/crashNotice.js';
import { readReminderFile } from '../../src/reminders/reminderFile.js';
import type { Lang } from '../../src/i18n/messages.js';
import { watchWorkspace, type WorkspaceWatcher } from '../../src/watch/workspaceWatcher.js';
import { waitUntil } from '../helpers/waitFor.js';

const CJK = /[\u4e00-\u9fff]/;
let watcher: WorkspaceWatcher | undefined;
let root: string | undefined;

afterEach(async () => {
  await watcher?.close();
  watcher = undefined;
  if (root) fs.rmSync(root, { recursive: true, force: true });
  root = undefined;
});

async function capNotice(lang: Lang): Promise<string> {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-cap-'));
  for (let i = 0; i < 8; i++) fs.writeFileSync(path.join(root, `f${i}.txt`), 'x');
  const notices: string[] = [];
  watcher = watchWorkspace({
    root,
    maxEntries: 3,
    lang,
    onChange: () => undefined,
    onNotice: (m) => notices.push(m),
  });
  await watcher.ready;
  return waitUntil(() => notices[0], 'the cap notice');
}

describe('notices in the screen language', () => {
  it('the watcher cap, in Chinese and in English', async () => {
    const zh = await capNotice('zh');
    expect(zh).toMatch(CJK);
    expect(zh).toContain('watch.maxEntries');
    await watcher?.close();
    watcher = undefined;
    expect(await capNotice('en')).toMatch(/^the workspace has more than 3 files and folders/);
  });

  it('crash recovery, in Chinese and in English', () => {
    const report = { results: 2, rolledBack: 1, refused: ['line 3: not JSON'] };
    const zh = crashNotice(report, 'zh') ?? '';
    expect(zh.split('\n')[0]).toMatch(CJK);
    expect(zh).toContain('修改日志中有 Cogito 未执行的条目');
    expect(zh).not.toMatch(/cut off|did not act/);
    expect(crashNotice(report)).toMatch(/^The last run was cut off by a crash: 2 tool result/);
  });

  it('a reminders file that cannot be read, in Chinese and in English', () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-rem-'));
    const file = path.join(root, 'reminders.json');
    fs.writeFileSync(file, '{ not json');
    const zh = readReminderFile(file, 'zh');
    expect(zh.reminders).toEqual([]);
    expect(zh.warning).toMatch(CJK);
    expect(zh.warning).toContain(file);
    expect(readReminderFile(file).warning).toMatch(/^the saved reminders in /);
  });
});
