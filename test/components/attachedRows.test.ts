/**
 * A user's message with `@path` files attached shows as what was typed plus one line per file
 * (`↳ attached notes/a.md (2.1 KB)`), never the files' whole text; a file that was not
 * attached shows as one line too. The split is the inverse of what attachMentions wrote.
 */
import { describe, expect, test } from 'vitest';
import { blockRows } from '../../components/panes/conversation.js';
import { attachMentions, splitAttachments } from '../../src/agent/mentions.js';

const BODY = 'line of notes\n'.repeat(160);
const saved = [
  'summarise @notes/a.md and @gone.md',
  '',
  '[Attached by the user: @notes/a.md]',
  `<data>\n${BODY}</data>`,
  '',
  '[@gone.md: not attached: Nothing exists at "gone.md". Check the name with ls or find.]',
].join('\n');

describe('attachments in the conversation', () => {
  test('splitAttachments gives the typed text and each file with its size', () => {
    const { text, files } = splitAttachments(saved);
    expect(text).toBe('summarise @notes/a.md and @gone.md');
    expect(files).toEqual([
      { path: 'notes/a.md', bytes: Buffer.byteLength(`<data>\n${BODY}</data>`) },
      { path: 'gone.md' },
    ]);
    expect(splitAttachments('no files here')).toEqual({ text: 'no files here', files: [] });
  });

  test('the pane shows one line per file, not its text', () => {
    const rows = blockRows(
      {
        kind: 'message',
        key: 'u1',
        message: { id: 'u1', role: 'user', content: saved, at: 0 },
      },
      80,
      'en',
    ).map((r) => r.text);
    expect(rows.join('\n')).not.toContain('line of notes');
    expect(rows).toContain('  ↳ attached notes/a.md (2.2 KB)');
    expect(rows).toContain('  ↳ not attached: gone.md');
    expect(rows.some((r) => r.includes('summarise @notes/a.md and @gone.md'))).toBe(true);
  });

  test('what attachMentions writes splits back into the text and the files', async () => {
    const read = { name: 'read' };
    const deps = {
      registry: {
        get: (n: string) => (n === 'read' ? read : undefined),
        run: async (_n: string, args: readonly unknown[]) => ({
          result:
            args[0] === 'a.md'
              ? { ok: true as const, data: 'A'.repeat(3000) }
              : { ok: false as const, error: { kind: 'not_found', message: 'Nothing there.' } },
        }),
      },
      workspace: {},
      safety: {
        redactor: { redact: (s: string) => s },
        observe: () => undefined,
        forModel: (_t: unknown, _u: boolean, body: string) => body,
      },
    };
    const sent = await attachMentions(
      'see @a.md and @b.md',
      deps as never,
      new AbortController().signal,
    );
    expect(splitAttachments(sent)).toEqual({
      text: 'see @a.md and @b.md',
      files: [{ path: 'a.md', bytes: 3000 }, { path: 'b.md' }],
    });
  });
});
