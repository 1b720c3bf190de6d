/**
 * MCP servers that misbehave over their lifetime, as real processes:
 * - one stuck in its handshake that shrugs off SIGTERM must still be gone when Cogito stops,
 *   exits without stopping, or is ended by a signal in print mode;
 * - one that sends 5,000 `notifications/tools/list_changed` must cost a handful of
 *   `tools/list` requests, with no listener-leak warning.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpManager } from '../../src/mcp/manager.js';
import type { Tool } from '../../src/tools/types.js';
import { runCogito } from '../helpers/cogitoProcess.js';
import { isAlive, readPid, stdioFixtureConfig } from '../helpers/mcpServers.js';
import { startScriptedServer } from '../helpers/scriptedServer.js';
import { waitUntil } from '../helpers/waitFor.js';

const run = promisify(execFile);

let dir: string;
let manager: McpManager | undefined;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cogito-mcp-life-'));
});
afterEach(async () => {
  await manager?.stop();
  manager = undefined;
  // A failed test must not leave the stubborn fixture behind.
  const pid = readPid(path.join(dir, 'pid'));
  if (pid !== undefined && isAlive(pid)) process.kill(pid, 'SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

/** A server that writes its pid, then never answers `initialize` and ignores SIGTERM. */
const stuckEnv = (): Record<string, string> => ({
  MCP_FIXTURE_DIR: dir,
  MCP_FIXTURE_DELAY_MS: '600000',
  MCP_FIXTURE_IGNORE_TERM: '1',
});

async function stuckPid(timeoutMs = 15_000): Promise<number> {
  await waitUntil(() => existsSync(path.join(dir, 'pid')), 'the server process', timeoutMs);
  return waitUntil(() => readPid(path.join(dir, 'pid')), 'the pid');
}

describe('a server stuck in its handshake that ignores SIGTERM', () => {
  it('is gone when stop() resolves', async () => {
    manager = new McpManager({
      servers: { stuck: stdioFixtureConfig({ env: stuckEnv() }) },
      workspaceRoot: dir,
    });
    manager.start();
    const pid = await stuckPid();
    expect(manager.status()[0]?.state).toBe('starting');
    await manager.stop();
    expect(isAlive(pid)).toBe(false);
  });

  it('is killed by the exit hook when the process exits without stop()', async () => {
    const fx = stdioFixtureConfig({ env: stuckEnv() });
    const [loaderFlag, loader] = fx.args ?? [];
    const script = path.resolve(import.meta.dirname, '../fixtures/mcp/exitWithoutStop.ts');
    await run(process.execPath, [
      loaderFlag ?? '',
      loader ?? '',
      script,
      JSON.stringify(fx),
      dir,
      'handshake',
    ]);
    const pid = await stuckPid();
    await waitUntil(() => !isAlive(pid), `the server process ${pid} to be gone`);
  });

  it('is gone after `cogito -p` is ended by SIGTERM', async () => {
    const llm = await startScriptedServer();
    const ws = path.join(dir, 'ws');
    const home = path.join(dir, 'home');
    try {
      const fx = stdioFixtureConfig({ env: stuckEnv() });
      await Promise.all([mkdir(ws), mkdir(home)]);
      await writeFile(
        path.join(home, 'config.json'),
        JSON.stringify({
          mcpServers: { stuck: { command: fx.command, args: fx.args, env: fx.env } },
        }),
      );
      llm.setDefault({ kind: 'hang' });
      const cogito = runCogito(['-p', 'hello', '--workspace', ws, '--home', home], {
        COGITO_API_KEY: 'k',
        COGITO_BASE_URL: llm.url,
        COGITO_MODEL: 'scripted',
      });
      const pid = await stuckPid(40_000);
      await llm.waitForRequest(0, 15_000);
      cogito.kill('SIGTERM');
      expect(await cogito.code).toBe(130);
      await waitUntil(() => !isAlive(pid), `the server process ${pid} to be gone`, 2_000);
    } finally {
      await llm.close();
    }
  }, 60_000);
});

describe('a storm of tools/list_changed', () => {
  it('5,000 notifications make a handful of tools/list requests and no leak warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error): void => void warnings.push(w);
    process.on('warning', onWarning);
    try {
      manager = new McpManager({
        servers: { fx: stdioFixtureConfig({ env: { MCP_FIXTURE_DIR: dir } }) },
        workspaceRoot: dir,
      });
      manager.start();
      const mcp = manager;
      await waitUntil(() => mcp.status()[0]?.state === 'connected', 'the server', 15_000);
      const tool = (name: string): Tool => mcp.list().find((t) => t.name === `mcp__fx__${name}`)!;
      const ctx = { workspace: {} as never, signal: new AbortController().signal };
      const lists = async (): Promise<number> => {
        const result = await tool('lists').run([], ctx);
        if (!result.ok) throw new Error(result.error.message);
        return Number(result.data);
      };

      expect(await tool('storm').run([5000], ctx)).toMatchObject({ ok: true });
      // The storm added a tool: the list read after it has it.
      await waitUntil(() => mcp.list().some((t) => t.name === 'mcp__fx__extra'), 'the new list');
      // Settled: two reads in a row see the same count.
      let seen = -1;
      const count = await waitUntil(async () => {
        const n = await lists();
        const settled = n === seen;
        seen = n;
        return settled ? n : undefined;
      }, 'the tools/list requests to settle');
      // One at connect, one in flight during the storm, at most a few queued behind it.
      expect(count).toBeGreaterThanOrEqual(2);
      expect(count).toBeLessThanOrEqual(5);
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
