/**
 * MCP tools from the first request: a real stdio MCP server that is slow to connect, and the
 * first model request (the only one of a `-p` run) already lists its tools. The wait is the
 * request's, bounded, and shown on the status bar; the app itself never waits for it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/createApp.js';
import { stateLabel } from '../../src/agent/stateLabel.js';
import { runCogito } from '../helpers/cogitoProcess.js';
import { stdioFixtureConfig } from '../helpers/mcpServers.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { waitForStore } from '../helpers/waitFor.js';

describe('MCP tools from the first request', () => {
  let llm: ScriptedServer;
  let ws: string;
  let home: string;
  let env: Record<string, string>;

  /** config.json with the fixture server, its handshake held back by `delayMs`. */
  const configure = async (delayMs: number, extra: Record<string, unknown> = {}) => {
    const fx = stdioFixtureConfig({ env: { MCP_FIXTURE_DELAY_MS: String(delayMs) } });
    const server = { command: fx.command, args: fx.args, env: fx.env };
    await writeFile(
      path.join(home, 'config.json'),
      JSON.stringify({ mcpServers: { fx: server }, ...extra }),
    );
  };
  const systemPrompt = (n: number): string =>
    (llm.requests[n]!.body.messages as { content: string }[])[0]!.content;

  beforeEach(async () => {
    llm = await startScriptedServer();
    ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-mcp1-ws-'));
    home = await mkdtemp(path.join(os.tmpdir(), 'cogito-mcp1-home-'));
    env = { COGITO_API_KEY: 'k', COGITO_BASE_URL: llm.url, COGITO_MODEL: 'scripted' };
  });
  afterEach(async () => {
    await llm.close();
    for (const dir of [ws, home]) await rm(dir, { recursive: true, force: true });
  });

  it('-p: the one request of the run lists the tools of a server that was slow to connect', async () => {
    await configure(1500);
    llm.push({ kind: 'stream', content: 'The echo tool is there. [WAIT]' });
    const run = runCogito(['-p', 'which tools?', '--workspace', ws, '--home', home], env);
    expect(await run.code).toBe(0);
    expect(llm.requests).toHaveLength(1);
    expect(systemPrompt(0)).toContain('mcp__fx__echo(text: string, times?: integer)');
  }, 60_000);

  it('-p: a server that does not connect within mcpConnectTimeoutMs does not hold the request', async () => {
    await configure(60_000, { mcpConnectTimeoutMs: 300 });
    llm.push({ kind: 'stream', content: 'Answered without it. [WAIT]' });
    const run = runCogito(['-p', 'hello', '--workspace', ws, '--home', home], env);
    expect(await run.code).toBe(0);
    expect(llm.requests).toHaveLength(1);
    expect(systemPrompt(0)).not.toContain('mcp__fx__');
    expect(run.stdout()).toContain('Answered without it.');
  }, 60_000);

  it('the status bar says what the first request waits for, and the app never waits', async () => {
    await configure(1500);
    const made = await createApp({
      flags: { home, workspace: ws },
      env,
      initialState: 'AWAITING_INPUT',
      background: false,
    });
    if (!made.ok) throw new Error(made.message);
    const { agent, mcp } = made.app;
    try {
      // Handed over while the server still starts: the first frame is never held up.
      expect(mcp.status()[0]?.state).toBe('starting');
      llm.push({ kind: 'stream', content: 'Here. [WAIT]' });
      agent.start();
      agent.send({ type: 'submit', text: 'echo something' });
      const waiting = await waitForStore(
        agent.store,
        (s) => s.preparing !== undefined,
        'the wait on the status bar',
      );
      expect(stateLabel(waiting, Date.now(), 'en')).toBe('Thinking · connecting MCP: fx…');
      // Nothing is sent before the server is there.
      expect(llm.requests).toHaveLength(0);
      const req = await llm.waitForRequest(0, 30_000);
      expect(mcp.status()[0]?.state).toBe('connected');
      expect(JSON.stringify(req.body.messages[0])).toContain('mcp__fx__echo');
      expect(agent.store.getState().preparing).toBeUndefined();
      await agent.idle();
    } finally {
      await made.app.close();
    }
  }, 60_000);
});
