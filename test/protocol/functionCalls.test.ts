/** A server's native calls become the reader's call items, near misses included. */
import { describe, expect, it } from 'vitest';
import { nativeCallItems } from '../../src/protocol/functionCalls.js';
import { resolveCall } from '../../src/protocol/resolve.js';

const READ = { params: [{ name: 'path', type: 'string' as const, description: 'file' }] };

describe('native calls as call items', () => {
  it('a JSON object of arguments becomes named arguments, keeping the server id and text', () => {
    const [item] = nativeCallItems([{ id: 'c9', name: 'read', arguments: '{"path":"a.md"}' }], 7);
    expect(item).toMatchObject({
      type: 'call',
      name: 'read',
      args: [],
      named: [{ name: 'path', value: 'a.md' }],
      start: 7,
      end: 7,
      native: { id: 'c9', arguments: '{"path":"a.md"}' },
    });
    expect(resolveCall(item!, READ)).toMatchObject({ type: 'call', args: ['a.md'] });
  });

  it('malformed arguments are a malformed item whose error shows the object to send', () => {
    const [item] = nativeCallItems(
      [{ id: 'c1', name: 'read', arguments: '{"path": "a.md"' }],
      0,
      () => ['path'],
    );
    // Sent back as `{}`, so the server can render the history; `raw` keeps what came.
    expect(item).toMatchObject({
      type: 'malformed',
      name: 'read',
      raw: 'read({"path": "a.md")',
      native: { id: 'c1', arguments: '{}' },
    });
    expect(item?.type === 'malformed' && item.error).toMatch(
      /arguments of read are not valid JSON.*Expected: read\(\{"path": …\}\)/,
    );
  });

  it('arguments that fit no parameter are told in the JSON form', () => {
    const [item] = nativeCallItems([{ id: 'c2', name: 'read', arguments: '{"file":"a.md"}' }], 0);
    const resolved = resolveCall(item!, READ);
    expect(resolved).toMatchObject({ type: 'malformed', native: { id: 'c2' } });
    expect(resolved.type === 'malformed' && resolved.error).toMatch(
      /read has no parameter "file".*Expected: read\(\{"path": …\}\)/,
    );
  });

  it('a call without a name is answered, not dropped', () => {
    const [item] = nativeCallItems([{ id: 'c3', name: '', arguments: '{}' }], 0);
    expect(item).toMatchObject({ type: 'malformed', native: { id: 'c3' } });
  });
});
