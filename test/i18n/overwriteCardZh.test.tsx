/**
 * On a Chinese screen, the card that asks before create overwrites a file says why in
 * Chinese: the real app (createApp with a zh locale) against the scripted server, drawn by
 * the real screen, a real file in a temp workspace.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import React from 'react';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../components/App.js';
import { createApp, type App as CogitoApp } from '../../src/app/createApp.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { waitForStore } from '../helpers/waitFor.js';
import { plain, waitForFrame } from '../helpers/waitForFrame.js';

describe('the overwrite card on a Chinese screen', () => {
  let server: ScriptedServer | undefined;
  let ws: string;
  let home: string;
  let app: CogitoApp | undefined;

  afterEach(async () => {
    await app?.close();
    app = undefined;
    await server?.close();
    await rm(ws, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it('shows the reason in Chinese, and declining leaves the file alone', async () => {
    server = await startScriptedServer();
    ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-zh-ws-'));
    home = await mkdtemp(path.join(os.tmpdir(), 'cogito-zh-home-'));
    await writeFile(path.join(ws, 'plan.md'), 'old plan\n');
    const env = {
      COGITO_API_KEY: 'k',
      COGITO_BASE_URL: server.url,
      COGITO_MODEL: 'm',
      LANG: 'zh_CN.UTF-8',
    };
    server.push(
      { kind: 'stream', content: '[TOOL] create("plan.md", "new plan\\n") [/TOOL]' },
      { kind: 'stream', content: '好的，不覆盖。' },
    );
    const r = await createApp({
      flags: { home, workspace: ws, thinkIntervalMs: 0 },
      env,
      initialState: 'AWAITING_INPUT',
    });
    if (!r.ok) throw new Error(r.message);
    app = r.app;
    const { agent } = app;
    const ui = render(
      <App
        controller={agent}
        loop={agent}
        workspace={ws}
        columns={120}
        rows={30}
        lang="zh"
        approvalDelayMs={0}
      />,
    );
    try {
      agent.start();
      agent.send({ type: 'submit', text: '写 plan.md' });
      const frame = plain(
        await waitForFrame(ui.lastFrame, (f) => plain(f).includes('create 会覆盖已有的文件')),
      );
      expect(frame).toContain('create 会覆盖已有的文件 "plan.md"（9 B）。');
      expect(frame).not.toContain('would overwrite');
      ui.stdin.write('n');
      await waitForStore(
        agent.store,
        (s) => s.messages.some((m) => m.content.includes('不覆盖')),
        'the answer after the refusal',
      );
      expect(await readFile(path.join(ws, 'plan.md'), 'utf8')).toBe('old plan\n');
    } finally {
      ui.unmount();
    }
  });
});
