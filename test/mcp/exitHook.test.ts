import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpManager } from '../../src/mcp/manager.js';
import { isAlive, readPid, stdioFixtureConfig } from '../helpers/mcpServers.js';
import { waitUntil } from '../helpers/waitFor.js';

const run = promisify(execFile);

describe('MCP server processes and an exit without shutdown', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cogito-mcp-exit-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('process.exit without stop() still ends the server child', async () => {
    const fx = stdioFixtureConfig({ env: { MCP_FIXTURE_DIR: dir } });
    const [loaderFlag, loader] = fx.args ?? [];
    const script = path.resolve(import.meta.dirname, '../fixtures/mcp/exitWithoutStop.ts');
    await run(process.execPath, [loaderFlag ?? '', loader ?? '', script, JSON.stringify(fx), dir]);
    expect(existsSync(path.join(dir, 'pid'))).toBe(true);
    const pid = await waitUntil(() => readPid(path.join(dir, 'pid')), 'the pid');
    await waitUntil(() => !isAlive(pid), `the server process ${pid} to be gone`);
  });

  it('stop() while a server is still starting ends it too', async () => {
    const manager = new McpManager({
      servers: {
        slow: stdioFixtureConfig({ env: { MCP_FIXTURE_DIR: dir, MCP_FIXTURE_DELAY_MS: '30000' } }),
      },
      workspaceRoot: dir,
    });
    manager.start();
    await waitUntil(() => existsSync(path.join(dir, 'pid')), 'the server process', 15_000);
    const pid = await waitUntil(() => readPid(path.join(dir, 'pid')), 'the pid');
    expect(manager.status()[0]?.state).toBe('starting');
    await manager.stop();
    await waitUntil(() => !isAlive(pid), `the server process ${pid} to be gone`);
    expect(manager.status()[0]?.state).toBe('stopped');
  });
});
