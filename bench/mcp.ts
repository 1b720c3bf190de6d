/**
 * mcp: what MCP servers cost the user.
 * - full-screen app: spawn → first full frame with no server, with the stdio fixture server,
 *   and with a server whose handshake hangs (servers start in the background, so all three
 *   should match);
 * - after Ctrl+C quits the real program, whether the server process is gone (orphans);
 * - one `tools/call` round trip over stdio through Cogito's manager and registry.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { McpManager } from '../src/mcp/manager.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { Workspace } from '../src/tools/workspace.js';
import { isAlive, readPid, stdioFixtureConfig } from '../test/helpers/mcpServers.js';
import { startScriptedServer, type ScriptedServer } from '../test/helpers/scriptedServer.js';
import { waitUntil } from '../test/helpers/waitFor.js';
import { mainFor, type Bench, type BenchResult, type Metric } from './lib/report.js';
import { ms, summarize, type Summary } from './lib/stats.js';
import { isFullFrame, startTui } from './lib/tui.js';

type Variant = 'none' | 'stdio' | 'hanging';

/** One start of the real program: spawn → first full frame; then quit and look for orphans. */
async function frameSample(
  server: ScriptedServer,
  variant: Variant,
): Promise<{ frame: number; orphan: boolean }> {
  const marks = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-bench-mcp-'));
  const env: Record<string, string> = { MCP_FIXTURE_DIR: marks };
  if (variant === 'hanging') env.MCP_FIXTURE_DELAY_MS = '60000';
  const config = variant === 'none' ? {} : { mcpServers: { fx: stdioFixtureConfig({ env }) } };
  const tui = await startTui({ server, config, args: ['--paused'] });
  try {
    const frame = await tui.app.waitFor(isFullFrame, 'the first full frame');
    const pidFile = path.join(marks, 'pid');
    const pid =
      variant === 'none'
        ? undefined
        : await waitUntil(() => readPid(pidFile), 'the server', 20_000);
    await tui.close();
    const orphan = pid !== undefined && !(await gone(pid));
    return { frame: frame.t - tui.app.spawnedAt, orphan };
  } finally {
    fs.rmSync(marks, { recursive: true, force: true });
  }
}

async function gone(pid: number): Promise<boolean> {
  try {
    await waitUntil(() => !isAlive(pid), 'the server to end', 3_000);
    return true;
  } catch {
    process.kill(pid, 'SIGKILL');
    return false;
  }
}

/** `echo` over stdio, through the registry as the agent calls it. */
async function callRoundTrips(n: number): Promise<number[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-bench-mcp-'));
  const manager = new McpManager({ servers: { fx: stdioFixtureConfig() }, workspaceRoot: dir });
  const registry = new ToolRegistry([], [manager]);
  const ctx = { workspace: await Workspace.open(dir), signal: new AbortController().signal };
  manager.start();
  try {
    await waitUntil(() => manager.status()[0]?.state === 'connected', 'the server', 20_000);
    await registry.run('mcp__fx__echo', ['warm-up'], ctx);
    const samples: number[] = [];
    for (let i = 0; i < n; i++) {
      const started = performance.now();
      const { result } = await registry.run('mcp__fx__echo', [`call ${i}`], ctx);
      if (!result.ok) throw new Error(`echo failed: ${result.error.message}`);
      samples.push(performance.now() - started);
    }
    return samples;
  } finally {
    await manager.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function row(name: string, s: Summary): Metric {
  return { name, value: `p50 ${ms(s.p50)} (p90 ${ms(s.p90)}, n=${s.n})`, raw: s.p50 };
}

export const mcp: Bench = {
  name: 'mcp',
  async run({ quick }): Promise<BenchResult> {
    const samples = quick ? 2 : 6;
    const server = await startScriptedServer();
    server.setDefault({ kind: 'stream', content: 'Hello. [WAIT]' });
    const variants: Variant[] = ['none', 'stdio', 'hanging'];
    const frames: Record<Variant, number[]> = { none: [], stdio: [], hanging: [] };
    let orphans = 0;
    let quits = 0;
    try {
      await frameSample(server, 'none'); // warm-up: file cache, tsx compile cache
      for (let i = 0; i < samples; i++) {
        for (const v of variants) {
          const s = await frameSample(server, v);
          frames[v].push(s.frame);
          if (v !== 'none') quits += 1;
          if (s.orphan) orphans += 1;
        }
      }
    } finally {
      await server.close();
    }
    const calls = await callRoundTrips(quick ? 20 : 200);
    const sNone = summarize(frames.none);
    const sStdio = summarize(frames.stdio);
    const sHang = summarize(frames.hanging);
    const metrics: Metric[] = [
      row('TUI first frame, no MCP server', sNone),
      row('TUI first frame, one stdio server', sStdio),
      row('TUI first frame, a server whose handshake hangs', sHang),
      {
        name: 'server processes left after Ctrl+C quit',
        value: `${orphans} of ${quits}`,
        raw: orphans,
        target: '0',
        met: orphans === 0,
      },
      row('tools/call round trip over stdio (echo)', summarize(calls)),
    ];
    return {
      name: 'mcp',
      title: 'MCP servers',
      metrics,
      notes: [
        'The fixture server (test/fixtures/mcp/stdioMain.ts) runs through tsx, so it takes about a second to start; the first frame does not wait for it.',
        'Variants are interleaved per sample, so machine load affects them alike.',
      ],
      details: { samples: { firstFrameMs: frames, callMs: calls }, orphans, quits },
    };
  },
};

await mainFor(mcp, import.meta.url);
