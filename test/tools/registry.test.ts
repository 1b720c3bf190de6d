import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/tools/registry.js';
import { createFileTools } from '../../src/tools/files/index.js';
import type { Tool, ToolArg, ToolContext } from '../../src/tools/types.js';
import { ok } from '../../src/tools/types.js';
import type { Fixture } from './fixture.js';
import { makeFixture } from './fixture.js';

let f: Fixture;
beforeAll(async () => {
  f = await makeFixture();
});
afterAll(async () => {
  await f.cleanup();
});

/** A fake tool that records its calls; `behaviour` decides what run does. */
function fakeTool(
  name: string,
  behaviour: (args: readonly ToolArg[]) => Promise<unknown> = async () => 'done',
) {
  const calls: (readonly ToolArg[])[] = [];
  const tool: Tool = {
    name,
    description: `the ${name} tool`,
    kind: 'read',
    params: [
      { name: 'path', type: 'string', description: 'a path' },
      { name: 'offset', type: 'number', optional: true, description: 'an offset' },
      { name: 'all', type: 'boolean', optional: true, description: 'a flag' },
    ],
    async run(args) {
      calls.push(args);
      return ok(await behaviour(args));
    },
  };
  return { tool, calls };
}

const ctxWith = (signal: AbortSignal): ToolContext => ({ workspace: f.workspace, signal });
const live = (): ToolContext => ctxWith(new AbortController().signal);

describe('ToolRegistry', () => {
  it('throws at construction on duplicate names', () => {
    expect(() => new ToolRegistry([fakeTool('x').tool, fakeTool('x').tool])).toThrow(
      'Duplicate tool name "x"',
    );
  });

  it('gets and lists tools in order', () => {
    const a = fakeTool('a').tool;
    const b = fakeTool('b').tool;
    const reg = new ToolRegistry([a, b]);
    expect(reg.get('b')).toBe(b);
    expect(reg.get('c')).toBeUndefined();
    expect(reg.list().map((t) => t.name)).toEqual(['a', 'b']);
  });

  it('formats signatures with optional markers', () => {
    const reg = new ToolRegistry([fakeTool('peek').tool]);
    expect(reg.signature('peek')).toBe('peek(path: string, offset?: number, all?: boolean)');
  });

  it('reports an unknown tool with the known ones and a suggestion', async () => {
    const reg = new ToolRegistry(createFileTools());
    const { result } = await reg.run('Reed', ['x'], live());
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid_args' } });
    if (!result.ok) {
      expect(result.error.message).toContain('Unknown tool "Reed"');
      expect(result.error.message).toContain('Did you mean read?');
      expect(result.error.message).toContain(
        'ls, read, find, grep, create, edit, mkdir, copy, move, delete',
      );
    }
  });

  it.each<[string, ToolArg[], string]>([
    ['too few', [], 'takes 1 to 3 arguments, got 0'],
    ['too many', ['a', 1, true, 'x'], 'takes 1 to 3 arguments, got 4'],
    [
      'wrong type',
      ['a', '10'],
      'Argument 2 (offset) of peek must be a number, got the string "10"',
    ],
    ['number for string', [5], 'Argument 1 (path) of peek must be a string, got the number 5'],
    ['null for required', [null], 'is required and cannot be null'],
    ['not finite', ['a', Number.NaN], 'must be a finite number'],
  ])('refuses %s with the signature and never runs the tool', async (_label, args, message) => {
    const { tool, calls } = fakeTool('peek');
    const reg = new ToolRegistry([tool]);
    const { result } = await reg.run('peek', args, live());
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid_args' } });
    if (!result.ok) {
      expect(result.error.message).toContain(message);
      expect(result.error.message).toContain('peek(path: string, offset?: number, all?: boolean)');
    }
    expect(calls).toHaveLength(0);
  });

  it('accepts null for an omitted optional argument', async () => {
    const { tool, calls } = fakeTool('peek');
    const reg = new ToolRegistry([tool]);
    expect(reg.validate('peek', ['a', null, true])).toBeUndefined();
    const { result } = await reg.run('peek', ['a', null], live());
    expect(result).toEqual({ ok: true, data: 'done' });
    expect(calls).toEqual([['a', null]]);
  });

  it('turns a throw into an unknown error', async () => {
    const { tool } = fakeTool('boom', async () => {
      throw new Error('kaput');
    });
    const { result } = await new ToolRegistry([tool]).run('boom', ['a'], live());
    expect(result).toEqual({
      ok: false,
      error: { kind: 'unknown', message: 'boom failed unexpectedly: kaput' },
    });
  });

  it('turns a non-Error throw into an unknown error too', async () => {
    const { tool } = fakeTool('boom', () => Promise.reject('just a string'));
    const { result } = await new ToolRegistry([tool]).run('boom', ['a'], live());
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'unknown', message: expect.stringContaining('just a string') },
    });
  });

  it('does not start a tool when the signal is already aborted', async () => {
    const { tool, calls } = fakeTool('peek');
    const ac = new AbortController();
    ac.abort();
    const { result } = await new ToolRegistry([tool]).run('peek', ['a'], ctxWith(ac.signal));
    expect(result).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    expect(calls).toHaveLength(0);
  });

  it('reports a throw caused by an abort during the run as aborted', async () => {
    const ac = new AbortController();
    const { tool } = fakeTool('slow', async () => {
      ac.abort();
      throw new DOMException('The operation was aborted', 'AbortError');
    });
    const { result } = await new ToolRegistry([tool]).run('slow', ['a'], ctxWith(ac.signal));
    expect(result).toMatchObject({ ok: false, error: { kind: 'aborted' } });
  });

  it('describes every file tool for the prompt, one line each', () => {
    const reg = new ToolRegistry(createFileTools());
    const lines = reg.describeForPrompt().split('\n');
    const names = [
      'ls',
      'read',
      'find',
      'grep',
      'create',
      'edit',
      'mkdir',
      'copy',
      'move',
      'delete',
    ];
    expect(lines).toHaveLength(names.length);
    for (const [i, name] of names.entries()) {
      const tool = reg.get(name);
      expect(tool).toBeDefined();
      expect(lines[i]).toBe(`${reg.signature(name)} — ${tool?.description} [${tool?.kind}]`);
    }
    expect(lines[1]).toMatch(
      /^read\(path: string, offset\?: number, limit\?: number\) — .+ \[read\]$/,
    );
    expect(lines[0]).toMatch(/^ls\(path\?: string\) — /);
    expect(reg.describeForPrompt()).toContain('[destructive]');
  });

  it('gives the file tools the right kinds', () => {
    const kinds = Object.fromEntries(createFileTools().map((t) => [t.name, t.kind]));
    expect(kinds).toEqual({
      ls: 'read',
      read: 'read',
      find: 'read',
      grep: 'read',
      create: 'write',
      edit: 'write',
      mkdir: 'write',
      copy: 'write',
      move: 'write',
      delete: 'destructive',
    });
  });
});
