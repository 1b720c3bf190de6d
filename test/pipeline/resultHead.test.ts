/**
 * A result's header names its call, but a long argument (a file's whole content) is not
 * repeated there: the model wrote it, its own reply holds it, and the history would carry it
 * twice in every later request. What is cut is said; a key in the cut argument is redacted
 * before the cut, so no piece of it survives.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Redactor } from '../../src/core/redact.js';
import { resultHeadOf } from '../../src/protocol/callText.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { runUntilWait } from '../safety/attackHarness.js';

const KEY = 'sk-proj-4fGh8Jk2Lm6Np0Qr3St7Uv1Wx5Yz9Ab';

let h: Harness;
afterEach(async () => h?.dispose());

const lastResults = (): string => {
  const msgs = h.server.requests.at(-1)!.body.messages as { role: string; content: string }[];
  return msgs.at(-1)!.content;
};

describe("a result's header", () => {
  it('keeps the start of a long argument and says how much is left out', async () => {
    h = await createHarness();
    const body = `${'A story that goes on. '.repeat(200)}THE-END`;
    h.server.push(
      { kind: 'stream', content: `[TOOL] create("story.txt", "${body}") [/TOOL]` },
      { kind: 'stream', content: 'Written. [WAIT]' },
    );
    await runUntilWait(h, 'write me a story');
    expect(await readFile(path.join(h.workspaceDir, 'story.txt'), 'utf8')).toBe(body);
    const results = lastResults();
    const head = results.split('\n')[0]!;
    expect(head).toMatch(
      new RegExp(
        `^\\[RESULT create\\("story\\.txt", "A story that goes on\\. .{50,80}… \\[${body.length - 80} more characters\\]"\\)\\] ok$`,
      ),
    );
    expect(results).not.toContain('THE-END');
    // The whole text went to the model once: in the reply that wrote it.
    const all = JSON.stringify(h.server.requests.at(-1)!.body.messages);
    expect(all.split('THE-END')).toHaveLength(2);
    // Short arguments are named in full, as before.
    expect(h.agent.store.getState().toolLog[0]!.call).toContain('THE-END');
  });

  it('never leaves a piece of a key that straddles the cut: it is redacted first', () => {
    const redactor = new Redactor([KEY]);
    // The key starts 50 characters in: a cut at 80 made first would keep its first 30.
    const body = `${'p'.repeat(50)}${KEY}${'q'.repeat(300)}`;
    const at = { raw: '', start: 0, end: 0 };
    const call = { type: 'call' as const, name: 'create', args: ['k.txt', body], ...at };
    const head = resultHeadOf(call, (t) => redactor.redact(t));
    expect(head).toContain('[redacted secret]');
    for (let i = 0; i + 6 <= KEY.length; i++) expect(head).not.toContain(KEY.slice(i, i + 6));
    // Named arguments too.
    const named = resultHeadOf(
      { type: 'call', name: 'create', args: [], named: [{ name: 'content', value: body }], ...at },
      (t) => redactor.redact(t),
    );
    expect(named).toMatch(
      /^create\(content="p{50}\[redacted secret\]q+… \[\d+ more characters\]"\)$/,
    );
  });
});
