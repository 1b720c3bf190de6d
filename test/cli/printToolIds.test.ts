import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/api/events.js';
import { appPaths } from '../../src/config/paths.js';
import { SessionStore } from '../../src/history/index.js';
import { createAgentStore } from '../../src/store/agentStore.js';
import { runCogito } from '../helpers/cogitoProcess.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';

// One tool call has one id, from the moment the turn reads it: `<replyId>#<index>`.
describe('print mode: one id per tool call', () => {
  let server: ScriptedServer;
  let ws: string;
  let home: string;

  beforeEach(async () => {
    server = await startScriptedServer();
    ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-ids-ws-'));
    home = await mkdtemp(path.join(os.tmpdir(), 'cogito-ids-home-'));
  });
  afterEach(async () => {
    await server.close();
    await rm(ws, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it('--json: the tool events name the saved call part and its result; a restart rebuilds the same id', async () => {
    await writeFile(path.join(ws, 'notes.md'), 'hello notes');
    server.push(
      { kind: 'stream', content: 'Let me read it. [TOOL] read("notes.md") [/TOOL]' },
      { kind: 'stream', content: 'It says hello. [WAIT]' },
    );
    const env = { COGITO_API_KEY: 'sk-x', COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' };
    const run = runCogito(['-p', 'read it', '--json', '--workspace', ws, '--home', home], env);
    expect(await run.code, run.stderr()).toBe(0);
    const events = run
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AgentEvent);

    const toolIds = events.flatMap((e) =>
      e.type === 'tool_start' || e.type === 'tool_end' ? [e.entry.callId] : [],
    );
    expect(toolIds).toHaveLength(2);
    const added = events.flatMap((e) => (e.type === 'message_added' ? [e.message] : []));
    const reply = added.find((m) => m.role === 'assistant' && m.calls === 1)!;
    const part = reply.parts!.items.find((p) => p.type === 'call')!;
    const result = added.find((m) => m.role === 'tool')!;
    expect(part.id).toBe(`${reply.id}#0`);
    expect(toolIds).toEqual([part.id, part.id]);
    expect(result.callId).toBe(part.id);

    // A restart: the session as stored, loaded into a fresh store, rebuilds its tool log.
    const sessions = new SessionStore(appPaths(home).data);
    const session = (await sessions.list())[0]!;
    const stored = (await sessions.open(session.id)).messages();
    const store = createAgentStore();
    store.getState().apply({ type: 'history_loaded', messages: stored });
    expect(store.getState().toolLog.map((e) => e.callId)).toEqual([part.id]);
  }, 60_000);
});
