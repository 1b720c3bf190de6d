/**
 * All configured MCP servers: starts them in the background, offers their tools to the
 * registry (a {@link ToolSource}), reports their states for `/mcp`, and stops them on exit.
 * If the process ends without `stop()` (a crash), an exit hook still kills the children.
 */
import { Listeners } from '../core/listeners.js';
import type { ToolSource } from '../tools/registry.js';
import type { Tool } from '../tools/types.js';
import { adaptTool } from './adapter.js';
import type { McpServersSettings } from '../config/mcpSchema.js';
import { DEFAULT_RESTART, McpConnection, type RestartPolicy } from './connection.js';
import type { McpServerStatus } from './status.js';

interface McpManagerOptions {
  servers: McpServersSettings;
  /** Stdio servers run here unless their `cwd` says otherwise. */
  workspaceRoot: string;
  restart?: RestartPolicy;
}

export class McpManager implements ToolSource {
  private readonly connections: McpConnection[];
  private readonly listeners = new Listeners();
  private tools: readonly Tool[] = [];
  private seenLists: readonly unknown[] = [];
  private started = false;
  private stopped = false;
  /** When waiting for the first starts ends (set by the first wait): the bound is shared. */
  private settleBy: number | undefined;
  private readonly onExit = (): void => this.killChildren();

  constructor(options: McpManagerOptions) {
    const deps = {
      workspaceRoot: options.workspaceRoot,
      restart: options.restart ?? DEFAULT_RESTART,
      onChange: () => this.changed(),
    };
    this.connections = Object.entries(options.servers).map(
      ([name, cfg]) => new McpConnection(name, cfg, deps),
    );
  }

  /** Whether any server is configured (enabled or not). */
  get configured(): boolean {
    return this.connections.length > 0;
  }

  /** Starts every enabled server in the background; returns at once. Idempotent; a no-op after stop. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    if (this.connections.length > 0) process.on('exit', this.onExit);
    for (const c of this.connections) c.start();
  }

  /** The tools of every server, in configuration order; the same array until one changes. */
  list(): readonly Tool[] {
    return this.tools;
  }

  /** One row per configured server, in configuration order. */
  status(): McpServerStatus[] {
    return this.connections.map((c) => ({ ...c.state, name: c.name, restarts: c.restarts }));
  }

  /** The servers whose first start is still under way (neither connected nor failed yet). */
  starting(): string[] {
    return this.connections.filter((c) => c.state.state === 'starting').map((c) => c.name);
  }

  /**
   * Resolves once every server has connected or failed its first start (so the first
   * request can offer their tools), or when `signal` aborts; at the latest `timeoutMs` after
   * the first call, for every call (a server that hangs in its handshake delays one request,
   * not each one).
   */
  async settled(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.starting().length === 0 || signal?.aborted) return;
    this.settleBy ??= Date.now() + timeoutMs;
    const left = this.settleBy - Date.now();
    if (left <= 0) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        unsubscribe();
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, left);
      const unsubscribe = this.subscribe(() => {
        if (this.starting().length === 0) done();
      });
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  /** Called after any server's state or tool list changes; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    return this.listeners.subscribe(listener);
  }

  /** Stops every server and waits for their processes to end. Idempotent. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.connections.map((c) => c.stop()));
    process.off('exit', this.onExit);
  }

  private changed(): void {
    const lists = this.connections.map((c) => c.tools);
    if (lists.some((l, i) => l !== this.seenLists[i])) {
      this.seenLists = lists;
      this.tools = this.buildTools();
    }
    this.listeners.emit();
  }

  /** A name two tools would share (after sanitising) goes to the first one only. */
  private buildTools(): Tool[] {
    const names = new Set<string>();
    const tools: Tool[] = [];
    for (const c of this.connections) {
      for (const t of c.tools) {
        const tool = adaptTool(c, t);
        if (names.has(tool.name)) continue;
        names.add(tool.name);
        tools.push(tool);
      }
    }
    return tools;
  }

  /** Last resort at process exit: no server process may outlive Cogito. */
  private killChildren(): void {
    for (const c of this.connections) {
      const pid = c.pid;
      if (pid === undefined) continue;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}
