/**
 * The journal's decorator wraps a file tool's `needsApproval` and `run` and nothing else:
 * every other field the tool sets (its trust, where its data goes, its own argument check,
 * call shape and policy) must reach the registry and the approval as the tool wrote it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../src/journal/journal.js';
import { withJournal } from '../../src/journal/wrap.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { Tool, ToolError } from '../../src/tools/types.js';
import { LIMITS } from './fixture.js';

const refused: ToolError = { kind: 'invalid_args', message: 'create wants a path of its own' };

/** A `create` (a tool the journal wraps) that sets every optional field a tool may set. */
function fullTool(): Tool {
  return {
    name: 'create',
    description: 'makes a file',
    kind: 'write',
    params: [{ name: 'path', type: 'string', description: 'where' }],
    untrustedOutput: true,
    carriesDataOut: true,
    sendsTo: 'the test server',
    sendsToPhrase: { key: 'reason.toMcpLocal', vars: { server: 'test' } },
    signature: 'create(path: string, …)',
    checkArgs: (args) => (args[0] === 'bad' ? refused : undefined),
    approvalPolicy: () => ({ policy: 'deny', reason: 'the tool says no' }),
    needsApproval: async () => undefined,
    run: async () => ({ ok: true, data: 'made' }),
  };
}

let base: string | undefined;
afterEach(() => {
  if (base) fs.rmSync(base, { recursive: true, force: true });
  base = undefined;
});

function openJournal(): Journal {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-wrap-'));
  return Journal.open(path.join(base, 'session'), path.join(base, 'blobs'), LIMITS);
}

describe('withJournal', () => {
  it('keeps every field of the tool it wraps, and wraps only needsApproval and run', () => {
    const tool = fullTool();
    const journal = openJournal();
    const [wrapped] = withJournal([tool], () => journal);
    // The wrap did happen: otherwise keeping the fields would prove nothing.
    expect(wrapped).not.toBe(tool);
    expect(wrapped!.run).not.toBe(tool.run);
    expect(wrapped!.needsApproval).not.toBe(tool.needsApproval);
    const { run: _run, needsApproval: _needs, ...fields } = tool;
    for (const [key, value] of Object.entries(fields)) {
      expect(wrapped![key as keyof Tool], key).toBe(value);
    }
    journal.close();
  });

  it("lets the registry use the tool's own check and call shape", () => {
    const journal = openJournal();
    const registry = new ToolRegistry(withJournal([fullTool()], () => journal));
    expect(registry.validate('create', ['bad'])).toEqual(refused);
    // Three arguments to a one-parameter tool: its own check, not the arity check, decides.
    expect(registry.validate('create', ['a', 'b', 'c'])).toBeUndefined();
    expect(registry.signature('create')).toBe('create(path: string, …)');
    journal.close();
  });
});
