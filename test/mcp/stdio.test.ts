import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpManager } from '../../src/mcp/manager.js';
import type { McpServerStatus } from '../../src/mcp/status.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { ToolArg } from '../../src/tools/types.js';
import { Workspace } from '../../src/tools/workspace.js';
import { isAlive, stdioFixtureConfig } from '../helpers/mcpServers.js';
import { waitUntil } from '../helpers/waitFor.js';

const FAST_RESTART = { backoff: { baseMs: 20, maxMs: 200 }, maxAttempts: 4, stableMs: 60_000 };

// One server process for the whole file (starting one costs a second or two of tsx); the
// crash and the stop come last because they change its process.
describe('an MCP server over stdio', () => {
  let dir: string;
  let manager: McpManager;
  let registry: ToolRegistry;
  let workspace: Workspace;
  const states: McpServerStatus['state'][] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cogito-mcp-'));
    workspace = await Workspace.open(dir);
    manager = new McpManager({
      servers: { 'fix-ture': stdioFixtureConfig({ env: { MCP_FIXTURE_DIR: dir } }) },
      workspaceRoot: dir,
      restart: FAST_RESTART,
    });
    manager.subscribe(() => states.push(manager.status()[0]?.state ?? 'stopped'));
    registry = new ToolRegistry([], [manager]);
    manager.start();
    const connected = () => manager.status()[0]?.state === 'connected';
    await waitUntil(connected, 'the server to connect', 15_000);
  });

  afterAll(async () => {
    await manager.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const run = async (name: string, args: ToolArg[], signal = new AbortController().signal) =>
    (await registry.run(name, args, { workspace, signal })).result;
  const serverPid = async (): Promise<number> => {
    const r = await run('mcp__fix_ture__pid', []);
    return Number(r.ok ? r.data : NaN);
  };

  it('lists the tools in the prompt as mcp__server__tool with parameters, required first', () => {
    expect(manager.status()[0]).toMatchObject({
      name: 'fix-ture',
      state: 'connected',
      transport: 'stdio',
      toolCount: 12,
    });
    const prompt = registry.describeForPrompt();
    expect(prompt).toContain(
      'mcp__fix_ture__echo(text: string, times?: integer) — Repeats the text.',
    );
    expect(prompt).toContain('Parameters: text: What to repeat; times: How often.');
    expect(prompt).toContain(
      'mcp__fix_ture__save_note(title: string, tags?: array, pinned?: boolean)',
    );
    expect(prompt).toMatch(/mcp__fix_ture__wipe\(\) — .*\[destructive\]/);
    expect(prompt).toMatch(/mcp__fix_ture__save_note\(.*\[write\]/);
    expect(prompt).toMatch(/mcp__fix_ture__echo\(.*\[read\]/);
    expect(prompt).toMatch(/mcp__fix_ture__snapshot\(.*\[read\]/);
    expect(registry.get('mcp__fix_ture__echo')?.untrustedOutput).toBe(true);
  });

  it('calls with positional arguments and with one JSON object string', async () => {
    expect(await run('mcp__fix_ture__echo', ['ab', 3])).toEqual({ ok: true, data: 'ababab' });
    expect(await run('mcp__fix_ture__echo', ['{"text": "x", "times": 2}'])).toEqual({
      ok: true,
      data: 'xx',
    });
    // A string that only looks like JSON stays a string for a text parameter.
    expect(await run('mcp__fix_ture__echo', ['{"note": 1}'])).toEqual({
      ok: true,
      data: '{"note": 1}',
    });
    expect(await run('mcp__fix_ture__save_note', ['t', '["a","b"]', true])).toEqual({
      ok: true,
      data: 'saved {"title":"t","tags":["a","b"],"pinned":true}',
    });
    expect(await run('mcp__fix_ture__add', [2, 3])).toEqual({ ok: true, data: '{"sum":5}' });
  });

  it('gives schema errors naming the parameter', async () => {
    const wrongType = await run('mcp__fix_ture__echo', [5]);
    expect(wrongType).toMatchObject({ ok: false, error: { kind: 'invalid_args' } });
    const message = !wrongType.ok ? wrongType.error.message : '';
    expect(message).toContain('parameter "text" must be string, got the number 5');
    expect(message).toContain('Call it as mcp__fix_ture__echo(text: string, times?: integer)');
    const missing = await run('mcp__fix_ture__add', ['{"a": 1}']);
    expect(!missing.ok && missing.error.message).toContain('parameter "b" is required');
    const extra = await run('mcp__fix_ture__add', ['{"a": 1, "b": 2, "c": 3}']);
    expect(!extra.ok && extra.error.message).toContain('parameter "c" is not one this tool takes');
    const tooMany = await run('mcp__fix_ture__add', [1, 2, 3]);
    expect(!tooMany.ok && tooMany.error.message).toContain('at most 2 arguments, got 3');
  });

  it('describes images and resources by their size', async () => {
    expect(await run('mcp__fix_ture__snapshot', [])).toEqual({
      ok: true,
      data: '[image image/png, 2.9 KB]\n[resource file:///notes.txt text/plain, 5 bytes]',
    });
  });

  it('cancels the request on the server when the turn aborts during a slow call', async () => {
    const controller = new AbortController();
    const pending = run('mcp__fix_ture__slow', [], controller.signal);
    await waitUntil(() => existsSync(path.join(dir, 'slow-started')), 'the slow call to begin');
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    await waitUntil(
      () => existsSync(path.join(dir, 'cancelled')),
      'the server to see the cancellation',
    );
  });

  it('restarts after a crash in the middle of a call, and the tools come back', async () => {
    const before = await serverPid();
    const crashed = await run('mcp__fix_ture__crash', []);
    expect(crashed).toMatchObject({ ok: false, error: { kind: 'io' } });
    expect(!crashed.ok && crashed.error.message).toContain(
      'stopped during the call; it is being restarted',
    );
    const back = () => manager.status()[0]?.state === 'connected' && manager.status()[0]?.restarts;
    await waitUntil(back, 'the restart', 15_000);
    expect(states).toContain('restarting');
    expect(await serverPid()).not.toBe(before);
    expect(isAlive(before)).toBe(false);
    expect(await run('mcp__fix_ture__echo', ['back'])).toEqual({ ok: true, data: 'back' });
  });

  it('leaves no process behind after stop', async () => {
    const child = await serverPid();
    expect(isAlive(child)).toBe(true);
    const started = performance.now();
    await manager.stop();
    expect(isAlive(child)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(manager.status()[0]?.state).toBe('stopped');
    expect(await run('mcp__fix_ture__echo', ['x'])).toMatchObject({ ok: false });
  });
});
