import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpServerSchema } from '../../src/config/mcpSchema.js';
import { McpManager } from '../../src/mcp/manager.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { Workspace } from '../../src/tools/workspace.js';
import { startSseFixture } from '../helpers/mcpServers.js';
import { waitUntil } from '../helpers/waitFor.js';

describe('an older MCP server on the HTTP+SSE transport', () => {
  let fixture: Awaited<ReturnType<typeof startSseFixture>>;
  let manager: McpManager;

  beforeAll(async () => {
    fixture = await startSseFixture();
    manager = new McpManager({
      servers: { old: mcpServerSchema.parse({ url: fixture.url, timeoutMs: 5_000 }) },
      workspaceRoot: os.tmpdir(),
    });
    manager.start();
  });
  afterAll(async () => {
    await manager.stop();
    await fixture.close();
  });

  it('is reached through the SSE fallback when Streamable HTTP is refused', async () => {
    await waitUntil(() => manager.status()[0]?.state === 'connected', 'the fallback');
    expect(manager.status()[0]).toMatchObject({ transport: 'sse', toolCount: 12 });
    const registry = new ToolRegistry([], [manager]);
    const { result } = await registry.run('mcp__old__echo', ['sse'], {
      workspace: await Workspace.open(os.tmpdir()),
      signal: new AbortController().signal,
    });
    expect(result).toEqual({ ok: true, data: 'sse' });
  });
});
