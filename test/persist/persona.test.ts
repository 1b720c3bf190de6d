/**
 * `/persona NAME` is kept in config.json, as the setup wizard keeps its answers, so the next
 * start uses it; when the file cannot be written, it says the choice is for this run only.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCogito } from '../helpers/cogitoProcess.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { waitForStore } from '../helpers/waitFor.js';
import type { AgentStoreState } from '../../src/store/agentStore.js';

describe('/persona survives a restart', () => {
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  let env: Record<string, string>;
  let h: Harness | undefined;

  beforeEach(async () => {
    server = await startScriptedServer();
    ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-persona-ws-'));
    home = await mkdtemp(path.join(os.tmpdir(), 'cogito-persona-home-'));
    env = { COGITO_API_KEY: 'k', COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' };
  });
  afterEach(async () => {
    await h?.dispose();
    h = undefined;
    await server.close();
    await rm(ws, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it('the next run of the program starts with the persona chosen in the last one', async () => {
    await writeFile(path.join(home, 'config.json'), JSON.stringify({ thinkIntervalMs: 1000 }));
    const args = ['--workspace', ws, '--home', home, '--think-interval', '0'];
    const set = runCogito(['-p', '/persona detective', ...args], env);
    expect(await set.code, set.stderr()).toBe(0);
    expect(set.stdout() + set.stderr()).toContain(`kept in ${path.join(home, 'config.json')}`);
    // The rest of the file is kept as written.
    expect(JSON.parse(await readFile(path.join(home, 'config.json'), 'utf8'))).toEqual({
      thinkIntervalMs: 1000,
      persona: 'detective',
    });

    server.push({ kind: 'stream', content: 'Clues everywhere. [WAIT]' });
    const next = runCogito(['-p', 'what do you see?', ...args], env);
    expect(await next.code, next.stderr()).toBe(0);
    expect(server.requests[0]!.body.messages[0].content).toContain('# Persona: Detective');
  });

  it('a config.json that cannot be written: the persona is for this run, and it says why', async () => {
    h = await createHarness();
    h.agent.start();
    // A folder where the file should be: reading it fails with EISDIR.
    await mkdir(path.join(h.home, 'config.json'));
    h.agent.send({ type: 'submit', text: '/persona detective' });
    const said = (s: AgentStoreState) =>
      s.notices.find((n) => n.text.includes('persona: Detective'))?.text;
    const state = await waitForStore(h.agent.store, (s) => !!said(s), 'the answer to /persona');
    const notice = said(state);
    expect(notice).toContain('for this run only');
    expect(notice).toContain('EISDIR');
    expect(h.agent.store.getState().persona).toBe('detective');
  });
});
