/**
 * The tool log rebuilt from stored results: what a result kept of its line is used; a
 * session saved before that was kept, or a hand-edited one with a damaged field, still loads
 * (the damaged field is left out, the rest stays).
 */
import { describe, expect, it } from 'vitest';
import { parseRecord } from '../../src/history/records.js';
import { resultMessage } from '../../src/protocol/resultMessage.js';
import { toolLogFromHistory } from '../../src/store/restoredView.js';
import type { HistoryMessage } from '../../src/core/messages.js';

/** A stored line, read back as a load reads it. */
function loaded(m: unknown): HistoryMessage {
  const r = parseRecord(JSON.stringify({ t: 'msg', m }));
  if ('problem' in r || r.t !== 'msg') throw new Error(JSON.stringify(r));
  return r.m;
}

describe('toolLogFromHistory', () => {
  it('rebuilds status, arguments, summary and duration from what the result kept', () => {
    const shown = {
      status: 'denied' as const,
      args: ['a.md'],
      summary: 'the user declined',
      durationMs: 7,
    };
    const m = resultMessage(
      {
        call: 'delete("a.md")',
        ok: false,
        body: 'denied: no',
        shown: { ...shown, errorKind: 'denied' },
      },
      0,
      'r1#0',
    );
    const [e] = toolLogFromHistory([loaded(m)]);
    expect(e).toMatchObject({ ...shown, errorKind: 'denied', callId: 'r1#0', name: 'delete' });
    // The detail view shows the result's body, not the frame the model was sent.
    expect(e!.full).toBe('denied: no');
  });

  it('an old session (no kept line) loads as before: ok or error, no arguments', () => {
    const old = {
      id: 't1',
      role: 'tool',
      content: '[RESULT ls(".")] ok\na.txt\n[/RESULT]',
      at: 1000,
    };
    expect(toolLogFromHistory([loaded(old)])).toEqual([
      expect.objectContaining({ call: 'ls(".")', status: 'ok', args: [], full: 'a.txt' }),
    ]);
    expect(toolLogFromHistory([loaded(old)])[0]!.durationMs).toBeUndefined();
  });

  it('a damaged kept field is left out; the rest of the line stays', () => {
    const m = {
      id: 't2',
      role: 'tool',
      content: '[RESULT read("x")] error\nnot_found: x\n[/RESULT]',
      at: 1000,
      results: [
        {
          call: 'read("x")',
          ok: false,
          shown: { status: 'exploded', args: [{}], summary: 'gone', durationMs: 'soon' },
        },
      ],
    };
    const [e] = toolLogFromHistory([loaded(m)]);
    expect(e).toMatchObject({ status: 'error', args: [], summary: 'gone' });
    expect(e!.durationMs).toBeUndefined();
  });
});
