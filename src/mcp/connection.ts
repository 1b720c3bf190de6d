/**
 * One configured MCP server over its lifetime: connects in the background, keeps the last
 * tool list it reported, restarts with back-off after a crash, gives up (state `failed`)
 * after too many failures in a row, and stops for good on `stop()`.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as SdkTool } from '@modelcontextprotocol/sdk/types.js';
import { backoffDelay, type BackoffSettings } from '../core/backoff.js';
import type { ToolError } from '../tools/types.js';
import type { McpServerSettings } from '../config/mcpSchema.js';
import { endProcess } from './childEnd.js';
import { callError, connectReason, oneLine } from './errors.js';
import type { CallResultLike } from './results.js';
import type { McpServerState } from './status.js';
import type * as Transport from './transport.js';
import type { OpenedClient } from './transport.js';

/** The SDK loads with the first connection, not at start-up. */
type TransportModule = typeof Transport;
let transportModule: Promise<TransportModule> | undefined;
const loadTransport = (): Promise<TransportModule> =>
  (transportModule ??= import('./transport.js'));

/** How connections retry; the defaults suit real servers, tests shrink them. */
export interface RestartPolicy {
  backoff: BackoffSettings;
  /** Failures in a row (start or crash) before the server is marked failed. */
  maxAttempts: number;
  /** A connection that lived this long resets the failure count. */
  stableMs: number;
}

export const DEFAULT_RESTART: RestartPolicy = {
  backoff: { baseMs: 1_000, maxMs: 30_000 },
  maxAttempts: 6,
  stableMs: 30_000,
};

interface ConnectionDeps {
  workspaceRoot: string;
  restart: RestartPolicy;
  /** The server's tool list or state changed. */
  onChange(): void;
}

type CallOutcome = { ok: true; result: CallResultLike } | { ok: false; error: ToolError };

const STDERR_KEEP = 4_000;

export class McpConnection {
  private stateNow: McpServerState;
  private toolList: readonly SdkTool[] = [];
  private current: (OpenedClient & { since: number }) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  private restartCount = 0;
  private stopped = false;
  private stderr = '';
  /** The handshake in progress, so stop() can abort it and wait for its child to end. */
  private connecting: Promise<void> | undefined;
  /** The stdio child of the current attempt, from its spawn (mid-handshake too) to its end. */
  private childPid: number | undefined;
  private readonly shutdown = new AbortController();

  constructor(
    readonly name: string,
    readonly config: McpServerSettings,
    private readonly deps: ConnectionDeps,
  ) {
    this.stateNow = config.disabled ? { state: 'disabled' } : { state: 'starting' };
  }

  get state(): McpServerState {
    return this.stateNow;
  }

  /** How often the server was started again after a crash or failed start. */
  get restarts(): number {
    return this.restartCount;
  }

  /** The last tool list the server reported (kept while it restarts). */
  get tools(): readonly SdkTool[] {
    return this.toolList;
  }

  /** The child process of a stdio server that runs, connected or still in its handshake. */
  get pid(): number | undefined {
    return this.childPid;
  }

  /** Starts connecting in the background; never throws. */
  start(): void {
    if (this.config.disabled || this.stopped) return;
    this.beginConnect();
  }

  /** Calls a tool; every failure comes back as an error result, never a throw. */
  async call(
    tool: string,
    input: Record<string, unknown>,
    signal: AbortSignal,
    shownName: string,
  ): Promise<CallOutcome> {
    const live = this.current;
    if (live === undefined) return { ok: false, error: this.unavailable(shownName) };
    // The SDK never removes its listener from the signal it is given: hand it a per-call
    // signal, so a turn with many calls does not pile listeners onto the turn's signal.
    const perCall = new AbortController();
    const forward = (): void => perCall.abort(signal.reason);
    signal.addEventListener('abort', forward, { once: true });
    if (signal.aborted) perCall.abort(signal.reason);
    try {
      const result = await live.client.callTool({ name: tool, arguments: input }, undefined, {
        signal: perCall.signal,
        timeout: this.config.timeoutMs,
      });
      // Servers on the 2024 protocol may answer `{ toolResult }` instead of content.
      return {
        ok: true,
        result: 'toolResult' in result ? { structuredContent: result.toolResult } : result,
      };
    } catch (err) {
      return {
        ok: false,
        error: callError(err, this.name, shownName, signal, this.config.timeoutMs),
      };
    } finally {
      signal.removeEventListener('abort', forward);
    }
  }

  /** Stops the server (its process is ended) and every pending restart. Idempotent. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.shutdown.abort();
    await this.connecting;
    const live = this.current;
    this.current = undefined;
    if (!this.config.disabled) this.setState({ state: 'stopped' });
    await live?.client.close().catch(() => undefined);
    await this.endChild();
  }

  /** Ends the attempt's child if closing the client did not (it ignores SIGTERM, say). */
  private async endChild(): Promise<void> {
    const pid = this.childPid;
    this.childPid = undefined;
    if (pid !== undefined) await endProcess(pid);
  }

  private beginConnect(): void {
    const attempt = this.connect().finally(() => {
      if (this.connecting === attempt) this.connecting = undefined;
    });
    this.connecting = attempt;
  }

  private async connect(): Promise<void> {
    let opened: OpenedClient | undefined;
    try {
      const sdk = await loadTransport();
      opened = await sdk.openClient(this.config, {
        workspaceRoot: this.deps.workspaceRoot,
        onStderr: (chunk) => {
          this.stderr = (this.stderr + chunk).slice(-STDERR_KEEP);
        },
        prepare: (client) => this.watch(client, sdk),
        signal: this.shutdown.signal,
        onSpawn: (pid) => {
          this.childPid = pid;
        },
      });
      if (this.stopped) {
        await opened.client.close();
        return;
      }
      this.current = { ...opened, since: Date.now() };
      this.toolList = await listAllTools(opened.client, this.config.timeoutMs);
      this.setState({
        state: 'connected',
        transport: opened.kind,
        toolCount: this.toolList.length,
      });
    } catch (err) {
      const failed = this.current?.client;
      this.current = undefined;
      await (failed ?? opened?.client)?.close().catch(() => undefined);
      await this.endChild();
      if (!this.stopped) this.retry(this.withStderr(connectReason(err, this.config.command)));
    }
  }

  /** Crash detection and run-time tool list changes, wired before the handshake. */
  private watch(client: Client, sdk: TransportModule): void {
    client.onclose = () => {
      const live = this.current;
      if (this.stopped || live?.client !== client) return;
      this.current = undefined;
      if (this.childPid === live.pid) this.childPid = undefined; // it has exited
      if (Date.now() - live.since >= this.deps.restart.stableMs) this.failures = 0;
      this.retry(this.withStderr('the server closed the connection'));
    };
    // A storm of list_changed notifications costs one tools/list in flight and at most one
    // queued behind it: what matters is the list after the last notification.
    let listing = false;
    let again = false;
    client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, async () => {
      if (listing) {
        again = true;
        return;
      }
      listing = true;
      try {
        do {
          again = false;
          await this.relist(client);
        } while (again && this.current?.client === client);
      } finally {
        listing = false;
      }
    });
  }

  /** Reads the tool list again after the server said it changed. */
  private async relist(client: Client): Promise<void> {
    try {
      const tools = await listAllTools(client, this.config.timeoutMs);
      if (this.current?.client !== client) return;
      this.toolList = tools;
      const s = this.stateNow;
      if (s.state === 'connected') this.setState({ ...s, toolCount: tools.length });
    } catch {
      // The list stays as it was; a broken connection is noticed by onclose.
    }
  }

  private retry(reason: string): void {
    this.failures += 1;
    if (this.failures >= this.deps.restart.maxAttempts) {
      this.setState({ state: 'failed', reason });
      return;
    }
    const retryInMs = backoffDelay(this.failures, this.deps.restart.backoff);
    this.setState({ state: 'restarting', reason, attempt: this.failures, retryInMs });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.restartCount += 1;
      this.beginConnect();
    }, retryInMs);
    this.timer.unref();
  }

  private setState(next: McpServerState): void {
    this.stateNow = next;
    this.deps.onChange();
  }

  /** The last line the server wrote to stderr often says why it stopped. */
  private withStderr(reason: string): string {
    const last = this.stderr.trim().split('\n').pop()?.trim();
    return last ? `${reason}: ${oneLine(last, 200)}` : reason;
  }

  /** The reason holds the server's stderr or error text: quoted apart, as data. */
  private unavailable(tool: string): ToolError {
    const s = this.stateNow;
    const reason = 'reason' in s ? s.reason : undefined;
    const why = reason === undefined ? '' : ' (the reason is quoted below)';
    const message = `${tool} cannot run now: the MCP server "${this.name}" is ${s.state}${why}. Try again later, or carry on without it.`;
    return reason === undefined
      ? { kind: 'io', message }
      : { kind: 'io', message, outside: reason };
  }
}

/** Every page of `tools/list`. */
async function listAllTools(client: Client, timeoutMs: number): Promise<SdkTool[]> {
  if (client.getServerCapabilities()?.tools === undefined) return [];
  const tools: SdkTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const res = await client.listTools(cursor === undefined ? {} : { cursor }, {
      timeout: timeoutMs,
    });
    tools.push(...res.tools);
    cursor = res.nextCursor;
    if (cursor === undefined) break;
  }
  return tools;
}
