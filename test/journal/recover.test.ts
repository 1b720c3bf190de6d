/**
 * Finishing the crash record, step by step: a change whose `done` never came is rolled back
 * from the journal, and each call of the last reply without a result gets one that says
 * what happened.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeMessage, type HistoryMessage } from '../../src/core/messages.js';
import { finishCrashRecord } from '../../src/journal/recover.js';
import { withJournal } from '../../src/journal/wrap.js';
import { createFileTools } from '../../src/tools/files/index.js';
import type { Tool } from '../../src/tools/types.js';
import { journalFixture, seedMixed, treeOf, type JournalFixture } from './fixture.js';

let fx: JournalFixture;
afterEach(() => fx.cleanup());

/**
 * A tool that makes its change and then never returns: the process "dies" after the change
 * and before the journal's `done`. `made` resolves once the change is complete.
 */
function hangsAfter(name: string): { tool: Tool; made: Promise<void> } {
  const real = createFileTools().find((t) => t.name === name)!;
  let signalMade!: () => void;
  const made = new Promise<void>((resolve) => (signalMade = resolve));
  const tool: Tool = {
    ...real,
    run: async (args, ctx) => {
      await real.run(args, ctx);
      signalMade();
      return new Promise(() => {});
    },
  };
  return { tool, made };
}

function memoryHistory(messages: HistoryMessage[]): {
  messages(): readonly HistoryMessage[];
  append(m: HistoryMessage): { ok: true };
} {
  return { messages: () => messages, append: (m) => (messages.push(m), { ok: true }) };
}

describe('finishing the crash record', () => {
  it.each([
    ['create', ['fresh/new.txt', 'half made']],
    ['create', ['notes.txt', 'overwritten']],
    ['edit', ['笔记.md', '你好', '再见']],
    ['copy', ['docs', 'docs-copy']],
    ['move', ['docs', 'elsewhere/docs']],
    ['delete', ['run.sh']],
    ['mkdir', ['a/b/c']],
  ] as const)(
    'rolls back a %s cut off by a crash, and records it in the history',
    async (name, args) => {
      fx = await journalFixture(seedMixed);
      const before = await treeOf(fx.ws);
      const hanging = hangsAfter(name);
      const [tool] = withJournal([hanging.tool], () => fx.journal);
      const change = { turn: 'reply-1', trigger: 'timer', callIndex: 1 };
      void tool!.run([...args], {
        workspace: fx.workspace,
        signal: new AbortController().signal,
        change,
      });
      await hanging.made;
      expect(await treeOf(fx.ws)).not.toEqual(before);
      // A first call finished and was saved; the second (ours) was cut off.
      const reply = {
        ...makeMessage(
          'assistant',
          `[TOOL] ls(".") [/TOOL]\n[TOOL] ${name}(${args.map((a) => JSON.stringify(a)).join(', ')}) [/TOOL]`,
        ),
        id: 'reply-1',
        calls: 2,
      };
      const first = makeMessage('tool', '[RESULT ls(".")] ok\n…\n[/RESULT]', { callIndex: 0 });
      const messages = [reply, first];
      const report = await finishCrashRecord(memoryHistory(messages), fx.reopen(), fx.workspace);
      expect(report).toEqual({ results: 1, rolledBack: 1, refused: [] });
      expect(await treeOf(fx.ws)).toEqual(before);
      expect(messages.at(-1)).toMatchObject({ role: 'tool', callIndex: 1 });
      expect(messages.at(-1)!.content).toMatch(
        /\] error\ninterrupted by a crash while it ran; the half-made change was undone/,
      );
      expect(fx.journal.entries().at(-1)).toMatchObject({ state: 'none', note: 'rolled_back' });
    },
  );

  it("finds a later step's change by its reply, though the journal groups it by the turn", async () => {
    fx = await journalFixture(seedMixed);
    const [create] = withJournal(
      createFileTools().filter((t) => t.name === 'create'),
      () => fx.journal,
    );
    // The turn's second reply (its chain's next step) made the change; the crash came before
    // its result was saved.
    const change = { turn: 'reply-1', reply: 'reply-2', trigger: 'user', callIndex: 0 };
    const signal = new AbortController().signal;
    await create!.run(['later.txt', 'x'], { workspace: fx.workspace, signal, change });
    expect(fx.journal.entries().at(-1)).toMatchObject({ turn: 'reply-1', reply: 'reply-2' });
    const reply = {
      ...makeMessage('assistant', '[TOOL] create("later.txt", "x") [/TOOL]'),
      id: 'reply-2',
      calls: 1,
    };
    const messages = [reply];
    await finishCrashRecord(memoryHistory(messages), fx.reopen(), fx.workspace);
    expect(messages.at(-1)!.content).toMatch(/finished, but Cogito was stopped by a crash/);
  });

  it("removes the checked writer's temporary file a kill left beside the file", async () => {
    fx = await journalFixture(seedMixed);
    const before = await treeOf(fx.ws);
    const hanging = hangsAfter('edit');
    const [tool] = withJournal([hanging.tool], () => fx.journal);
    const signal = new AbortController().signal;
    void tool!.run(['notes.txt', 'first', 'FIRST'], { workspace: fx.workspace, signal });
    await hanging.made;
    fs.writeFileSync(path.join(fx.ws, '.notes.txt.3240938393.cogito-tmp'), 'half written');
    await finishCrashRecord(memoryHistory([]), fx.reopen(), fx.workspace);
    expect(await treeOf(fx.ws)).toEqual(before);
  });

  it('keeps a change that finished before the crash and says so', async () => {
    fx = await journalFixture(seedMixed);
    await fx.call('create', ['kept.txt', 'done before the crash'], 'reply-2');
    const reply = {
      ...makeMessage(
        'assistant',
        '[TOOL] create("kept.txt", "done before the crash") [/TOOL]\n[TOOL] read("kept.txt") [/TOOL]',
      ),
      id: 'reply-2',
      calls: 2,
    };
    const messages: HistoryMessage[] = [reply];
    const report = await finishCrashRecord(memoryHistory(messages), fx.reopen(), fx.workspace);
    expect(report).toEqual({ results: 2, rolledBack: 0, refused: [] });
    expect(messages[1]!.content).toMatch(/^\[RESULT create\("kept.txt".*\] ok\n.*crash.*kept/);
    expect(messages[2]!.content).toMatch(
      /^\[RESULT read\("kept.txt"\)\] error\ninterrupted by a crash/,
    );
    expect(fs.readFileSync(path.join(fx.ws, 'kept.txt'), 'utf8')).toBe('done before the crash');
  });

  it('leaves a clean history alone', async () => {
    fx = await journalFixture();
    const messages = [makeMessage('user', 'hi'), makeMessage('assistant', 'hello [WAIT]')];
    expect(await finishCrashRecord(memoryHistory(messages), fx.journal, fx.workspace)).toEqual({
      results: 0,
      rolledBack: 0,
      refused: [],
    });
    expect(messages).toHaveLength(2);
  });
});
