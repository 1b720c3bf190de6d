import { getEventListeners } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpServerSchema } from '../../src/config/mcpSchema.js';
import { McpManager } from '../../src/mcp/manager.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { ToolArg } from '../../src/tools/types.js';
import { Workspace } from '../../src/tools/workspace.js';
import { startHttpFixture, type HttpFixture } from '../helpers/mcpServers.js';
import { waitUntil } from '../helpers/waitFor.js';

const FAST_RESTART = { backoff: { baseMs: 20, maxMs: 100 }, maxAttempts: 3, stableMs: 60_000 };

describe('an MCP server over Streamable HTTP on 127.0.0.1', () => {
  let dir: string;
  let fixture: HttpFixture;
  let manager: McpManager;
  let registry: ToolRegistry;
  let workspace: Workspace;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cogito-mcp-http-'));
    workspace = await Workspace.open(dir);
    fixture = await startHttpFixture();
    manager = new McpManager({
      servers: { remote: mcpServerSchema.parse({ url: fixture.url, timeoutMs: 5_000 }) },
      workspaceRoot: dir,
      restart: FAST_RESTART,
    });
    registry = new ToolRegistry([], [manager]);
    manager.start();
    await waitUntil(() => manager.status()[0]?.state === 'connected', 'the server to connect');
  });

  afterAll(async () => {
    await manager.stop();
    await fixture.close();
    await rm(dir, { recursive: true, force: true });
  });

  const run = async (name: string, args: ToolArg[], signal = new AbortController().signal) =>
    (await registry.run(name, args, { workspace, signal })).result;

  it('lists the tools, and the prompt stays byte-identical while the list does not change', () => {
    expect(manager.status()[0]).toMatchObject({ state: 'connected', transport: 'http' });
    const prompt = registry.describeForPrompt();
    expect(prompt).toContain('mcp__remote__add(a: number, b: number) — Adds two numbers.');
    expect(prompt).toMatch(/mcp__remote__snapshot\(\) — .*\[read\]/);
    expect(registry.describeForPrompt()).toBe(prompt);
    expect(manager.list()).toBe(manager.list());
  });

  it('calls with positional and object arguments; structured content as compact JSON', async () => {
    expect(await run('mcp__remote__add', [1.5, 2])).toEqual({ ok: true, data: '{"sum":3.5}' });
    expect(await run('mcp__remote__add', ['{"b": 1, "a": 1}'])).toEqual({
      ok: true,
      data: '{"sum":2}',
    });
    expect(await run('mcp__remote__echo', ['ok'])).toEqual({ ok: true, data: 'ok' });
  });

  it('leaves no listener on the turn signal after its calls (many calls, one turn)', async () => {
    const turn = new AbortController();
    for (let i = 0; i < 12; i++) await run('mcp__remote__echo', [`n${i}`], turn.signal);
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
  });

  it('reports a schema violation naming the parameter', async () => {
    const bad = await run('mcp__remote__add', ['one', 2]);
    expect(bad).toMatchObject({ ok: false, error: { kind: 'invalid_args' } });
    expect(!bad.ok && bad.error.message).toContain(
      'parameter "a" must be number, got the string "one"',
    );
  });

  it('cancels the request on the server when the signal aborts', async () => {
    const controller = new AbortController();
    const pending = run('mcp__remote__slow', [], controller.signal);
    await waitUntil(() => fixture.slowStarted === 1, 'the slow call to reach the server');
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    await waitUntil(() => fixture.cancelled === 1, 'the server to see the cancellation');
  });

  it('a call that outlives timeoutMs is cancelled and reported as a timeout', async () => {
    const quick = new McpManager({
      servers: { q: mcpServerSchema.parse({ url: fixture.url, timeoutMs: 300 }) },
      workspaceRoot: dir,
    });
    const reg = new ToolRegistry([], [quick]);
    quick.start();
    try {
      await waitUntil(() => quick.status()[0]?.state === 'connected', 'the second client');
      const before = fixture.cancelled;
      const { result } = await reg.run('mcp__q__slow', [], {
        workspace,
        signal: new AbortController().signal,
      });
      expect(result).toMatchObject({ ok: false, error: { kind: 'timeout' } });
      expect(!result.ok && result.error.message).toContain('did not answer within 300 ms');
      await waitUntil(() => fixture.cancelled > before, 'the server to see the cancellation');
    } finally {
      await quick.stop();
    }
  });

  it('a changed tool list (notifications/tools/list_changed) reaches the prompt', async () => {
    expect(registry.get('mcp__remote__extra')).toBeUndefined();
    const before = registry.describeForPrompt();
    expect(await run('mcp__remote__grow', [])).toEqual({ ok: true, data: 'grown' });
    await waitUntil(() => registry.get('mcp__remote__extra'), 'the new tool');
    expect(registry.describeForPrompt()).not.toBe(before);
    expect(registry.describeForPrompt()).toContain('mcp__remote__extra() — Appeared at run time.');
    expect(manager.status()[0]).toMatchObject({ toolCount: 13 });
    expect(await run('mcp__remote__extra', [])).toEqual({ ok: true, data: 'extra works' });
  });
});

describe('MCP servers that cannot be reached', () => {
  it('a refused connection ends as failed with the reason, after retries', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const manager = new McpManager({
      servers: { gone: mcpServerSchema.parse({ url: `http://127.0.0.1:${port}/mcp` }) },
      workspaceRoot: os.tmpdir(),
      restart: FAST_RESTART,
    });
    manager.start();
    try {
      const failed = await waitUntil(() => {
        const s = manager.status()[0];
        return s?.state === 'failed' ? s : undefined;
      }, 'the server to be marked failed');
      expect(failed.reason).toMatch(/ECONNREFUSED|fetch failed/);
      expect(failed.restarts).toBe(FAST_RESTART.maxAttempts - 1);
      expect(manager.list()).toEqual([]);
    } finally {
      await manager.stop();
    }
  });

  it('a command that does not exist fails with a reason that names it', async () => {
    const manager = new McpManager({
      servers: {
        nope: mcpServerSchema.parse({ command: 'cogito-no-such-mcp-server', args: ['x'] }),
        off: mcpServerSchema.parse({ command: 'whatever', disabled: true }),
      },
      workspaceRoot: os.tmpdir(),
      restart: { ...FAST_RESTART, maxAttempts: 1 },
    });
    manager.start();
    try {
      const failed = await waitUntil(() => {
        const s = manager.status()[0];
        return s?.state === 'failed' ? s : undefined;
      }, 'the server to be marked failed');
      expect(failed.reason).toContain('cannot start "cogito-no-such-mcp-server": no such program');
      expect(manager.status()[1]).toMatchObject({ name: 'off', state: 'disabled' });
    } finally {
      await manager.stop();
    }
  });
});
