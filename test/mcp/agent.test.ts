import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app/createApp.js';
import { isAlive, readPid, stdioFixtureConfig } from '../helpers/mcpServers.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { waitForStore, waitUntil } from '../helpers/waitFor.js';

/**
 * The whole app as the user runs it: `mcpServers` in config.json, a real stdio MCP server
 * spawned by Cogito, the model played by the scripted OpenAI-compatible server.
 */
describe('MCP tools in the running agent', () => {
  let llm: ScriptedServer;
  let ws: string;
  let home: string;
  let marks: string;
  let app: App | undefined;

  beforeEach(async () => {
    llm = await startScriptedServer();
    ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-mcp-ws-'));
    home = await mkdtemp(path.join(os.tmpdir(), 'cogito-mcp-home-'));
    marks = await mkdtemp(path.join(os.tmpdir(), 'cogito-mcp-marks-'));
    const fx = stdioFixtureConfig({ env: { MCP_FIXTURE_DIR: marks } });
    await writeFile(
      path.join(home, 'config.json'),
      JSON.stringify({ mcpServers: { fx: { command: fx.command, args: fx.args, env: fx.env } } }),
    );
    const made = await createApp({
      flags: { home, workspace: ws, thinkIntervalMs: 5 },
      env: { COGITO_API_KEY: 'k', COGITO_BASE_URL: llm.url, COGITO_MODEL: 'scripted' },
      initialState: 'AWAITING_INPUT',
    });
    if (!made.ok) throw new Error(made.message);
    app = made.app;
    const mcp = app.mcp;
    // createApp never waits for a server: it is still starting when the app is handed over.
    expect(mcp.status()[0]?.state).toBe('starting');
    await waitUntil(() => mcp.status()[0]?.state === 'connected', 'the server', 15_000);
    app.agent.start();
  });

  afterEach(async () => {
    await app?.close();
    await llm.close();
    for (const dir of [ws, home, marks]) await rm(dir, { recursive: true, force: true });
  });

  const lastNotice = (a: App): string => a.agent.store.getState().notices.at(-1)?.text ?? '';
  const requestText = async (n: number): Promise<string> =>
    JSON.stringify((await llm.waitForRequest(n)).body.messages);

  it('offers the tools in the system prompt and runs a call the model makes', async () => {
    llm.push(
      { kind: 'stream', content: 'Checking. [TOOL] mcp__fx__echo("hi", 2) [/TOOL]' },
      { kind: 'stream', content: 'It said hihi. [WAIT]' },
    );
    app!.agent.send({ type: 'submit', text: 'echo something' });
    const system = (await llm.waitForRequest(0)).body.messages as { content: string }[];
    expect(system[0]?.content).toContain('mcp__fx__echo(text: string, times?: integer)');
    expect(await requestText(1)).toContain('hihi');
  });

  it("asks before an untrusted server's write tool runs", async () => {
    llm.push(
      { kind: 'stream', content: '[TOOL] mcp__fx__save_note("groceries") [/TOOL]' },
      { kind: 'stream', content: 'Saved. [WAIT]' },
    );
    app!.agent.send({ type: 'submit', text: 'save a note' });
    const asked = await waitForStore(
      app!.agent.store,
      (s) => s.approval !== undefined,
      'the approval question',
    );
    expect(asked.approval?.reason).toContain('"fx" is not marked trusted');
    app!.agent.send({ type: 'answer_approval', answer: 'yes' });
    expect(await requestText(1)).toContain('saved {\\"title\\":\\"groceries\\"}');
  });

  it('goes on after the server crashes mid-call, and /mcp shows the restart', async () => {
    const firstPid = await waitUntil(() => readPid(path.join(marks, 'pid')), 'the pid');
    llm.push(
      { kind: 'stream', content: '[TOOL] mcp__fx__crash() [/TOOL]' },
      { kind: 'stream', content: 'The server fell over; I will carry on. [WAIT]' },
    );
    app!.agent.send({ type: 'submit', text: 'try the crash tool' });
    expect(await requestText(1)).toContain('stopped during the call; it is being restarted');
    await waitForStore(
      app!.agent.store,
      (s) =>
        s.machine === 'AWAITING_INPUT' && s.messages.at(-1)?.content.includes('carry on') === true,
      'the agent to carry on',
    );
    const mcp = app!.mcp;
    await waitUntil(
      () => mcp.status()[0]?.restarts === 1 && mcp.status()[0]?.state === 'connected',
      'the restart',
      15_000,
    );
    app!.agent.send({ type: 'submit', text: '/mcp' });
    await waitUntil(() => lastNotice(app!).includes('fx'), 'the /mcp answer');
    expect(lastNotice(app!)).toMatch(/fx\s+connected \(stdio\), 12 tools · restarted 1×/);
    expect(isAlive(firstPid)).toBe(false);
  });

  it('an interrupt during a slow tool cancels the request on the server', async () => {
    llm.push({ kind: 'stream', content: '[TOOL] mcp__fx__slow() [/TOOL]' });
    app!.agent.send({ type: 'submit', text: 'run the slow tool' });
    await waitUntil(() => existsSync(path.join(marks, 'slow-started')), 'the slow call');
    expect(app!.agent.send({ type: 'interrupt' }).ok).toBe(true);
    await waitUntil(() => existsSync(path.join(marks, 'cancelled')), 'the cancellation');
    await waitForStore(app!.agent.store, (s) => s.machine === 'AWAITING_INPUT', 'the floor');
  });

  it('leaves no server process behind after quit', async () => {
    const pid = await waitUntil(() => readPid(path.join(marks, 'pid')), 'the pid');
    expect(isAlive(pid)).toBe(true);
    await app!.close();
    expect(isAlive(pid)).toBe(false);
  });
});
