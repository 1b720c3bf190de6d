/**
 * The first request's wait for MCP servers is bounded once: a server stuck in its first start
 * holds up one request for at most the bound, and later requests not at all.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mcpServerSchema } from '../../src/config/mcpSchema.js';
import { McpManager } from '../../src/mcp/manager.js';

/** Lets every settled promise run its callbacks. */
const flush = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('McpManager.settled', () => {
  afterEach(() => vi.useRealTimers());

  // Never started: the server stays in its first start, and no process is spawned.
  const stuck = (): McpManager =>
    new McpManager({
      servers: { slow: mcpServerSchema.parse({ command: 'cogito-never-started' }) },
      workspaceRoot: '/',
    });

  it('waits for a server in its first start up to the bound, then no more', async () => {
    vi.useFakeTimers();
    const mcp = stuck();
    expect(mcp.starting()).toEqual(['slow']);
    let first = false;
    void mcp.settled(10_000).then(() => (first = true));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(first).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(first).toBe(true);
    // The bound is spent: the next request does not wait again.
    let second = false;
    void mcp.settled(10_000).then(() => (second = true));
    await flush();
    expect(second).toBe(true);
  });

  it('an abort (the user interrupts) ends the wait at once', async () => {
    vi.useFakeTimers();
    const mcp = stuck();
    const controller = new AbortController();
    let done = false;
    void mcp.settled(10_000, controller.signal).then(() => (done = true));
    await flush();
    expect(done).toBe(false);
    controller.abort();
    await flush();
    expect(done).toBe(true);
  });

  it('nothing configured, or disabled: nothing to wait for', async () => {
    const none = new McpManager({ servers: {}, workspaceRoot: '/' });
    const off = new McpManager({
      servers: { x: mcpServerSchema.parse({ command: 'x', disabled: true }) },
      workspaceRoot: '/',
    });
    expect(none.starting()).toEqual([]);
    expect(off.starting()).toEqual([]);
    let done = 0;
    void none.settled(10_000).then(() => done++);
    void off.settled(10_000).then(() => done++);
    await flush();
    expect(done).toBe(2);
  });
});
