/**
 * Background commands (`run` with background: true) in the real sandbox: started at once
 * with an id, their new output read by run_output, stopped by run_stop, by their time limit
 * and all at once (the app's close); a cap on how many run; and nothing they started,
 * daemonized or not (setsid, double fork, nohup), is left in /proc afterwards.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BackgroundCommands } from '../../../src/tools/process/background.js';
import { createBackgroundTools } from '../../../src/tools/process/backgroundTools.js';
import { createRunTool, type RunSettings } from '../../../src/tools/process/run.js';
import type { Tool, ToolResult } from '../../../src/tools/types.js';
import { Workspace } from '../../../src/tools/workspace.js';
import { pidsWith } from '../../helpers/procScan.js';
import { waitUntil } from '../../helpers/waitFor.js';

const SETTINGS: RunSettings = {
  timeoutMs: 20_000,
  maxOutputChars: 2_000,
  sandbox: 'bubblewrap',
  maxBackground: 2,
  backgroundTimeoutMs: 60_000,
  readOnlyCommands: [],
};
const hasBwrap = existsSync('/usr/bin/bwrap') || process.env.CI === 'true';
const text = (r: ToolResult): string => (r.ok ? String(r.data) : r.error.message);

describe.runIf(process.platform === 'linux' && hasBwrap)('background commands', () => {
  let root: string;
  let ws: Workspace;
  let bg: BackgroundCommands;
  let settings: RunSettings;
  let tools: Record<string, Tool>;
  const call = async (name: string, ...args: (string | boolean | null)[]): Promise<string> =>
    text(await tools[name]!.run(args, { workspace: ws, signal: new AbortController().signal }));
  const idOf = (started: string): string => /as (bg\d+)/.exec(started)![1]!;

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'cogito-bg-'));
    ws = await Workspace.open(root);
    settings = { ...SETTINGS };
    bg = new BackgroundCommands(() => settings);
    const run = createRunTool({ settings, hidden: [], background: bg });
    tools = Object.fromEntries(
      [run, ...createBackgroundTools(bg)].map((t) => [t.name, t] as const),
    );
  });
  afterEach(async () => {
    await bg.stopAll(true);
    await rm(root, { recursive: true, force: true });
  });

  it('starts at once, reads only the new output, and run_stop ends it with all it started', async () => {
    const marker = '76543.21';
    const counts: number[] = [];
    bg.onChange(() => counts.push(bg.count()));
    const started = await call(
      'run',
      `echo first; sleep ${marker} & while [ ! -e go ]; do sleep 0.05; done; echo second; sleep ${marker}`,
      null,
      true,
    );
    const id = idOf(started);
    expect(bg.count()).toBe(1);
    let out = '';
    await waitUntil(
      async () => /^first$/m.test((out += await call('run_output', id))),
      'first line',
      10_000,
    );
    expect(out).toMatch(/running for \d+ s/);
    await writeFile(path.join(root, 'go'), '');
    let later = '';
    await waitUntil(
      async () => (later += await call('run_output', id)).includes('second'),
      'second line',
      10_000,
    );
    // The first line was read already: a read gives only what came since.
    expect(later).not.toMatch(/^first$/m);
    await waitUntil(() => pidsWith(marker).length >= 2, 'both sleeps running', 10_000);
    const stopped = await call('run_stop', id);
    expect(stopped).toMatch(/stopped, with everything it started/);
    await waitUntil(() => pidsWith(marker).length === 0, 'no sleep left', 5_000);
    expect(bg.count()).toBe(0);
    expect(counts.at(-1)).toBe(0);
  }, 30_000);

  it('caps how many run at once, and says which run', async () => {
    await call('run', 'sleep 54321.1', null, true);
    await call('run', 'sleep 54321.1', null, true);
    const third = await call('run', 'sleep 54321.1', null, true);
    expect(third).toMatch(/2 background commands are running already \(run.maxBackground is 2\)/);
    expect(third).toContain('bg1: sleep 54321.1');
    await bg.stopAll(true);
    await waitUntil(() => pidsWith('54321.1').length === 0, 'no sleep left', 5_000);
    expect(await call('run', 'true', null, true)).toMatch(/agent is stopping/);
  }, 30_000);

  it('its own time limit stops it', async () => {
    settings.backgroundTimeoutMs = 300;
    const id = idOf(await call('run', 'sleep 65432.1', null, true));
    await waitUntil(() => bg.count() === 0, 'stopped at its limit', 10_000);
    expect(await call('run_output', id)).toMatch(/killed at its time limit/);
    await waitUntil(() => pidsWith('65432.1').length === 0, 'no sleep left', 5_000);
  }, 30_000);

  it('daemonized processes (setsid, double fork, nohup) die with the sandbox', async () => {
    const marker = '43210.9';
    const daemons = [
      `setsid sleep ${marker} & true`,
      `(sh -c 'sleep ${marker} &' &)`,
      `nohup sleep ${marker} >/dev/null 2>&1 & true`,
    ].join('; ');
    // One that ends by itself, leaving its daemons: the sandbox ends with it.
    const ended = idOf(await call('run', `${daemons}; sleep 0.5; echo bye`, null, true));
    await waitUntil(() => bg.count() === 0, 'the first ended', 10_000);
    expect(await call('run_output', ended)).toMatch(/exited with code 0/);
    await waitUntil(() => pidsWith(marker).length === 0, 'no daemon left', 5_000);
    // One killed by the app's close.
    await call('run', `${daemons}; echo up; sleep ${marker}`, null, true);
    await waitUntil(() => pidsWith(marker).length >= 4, 'all four running', 10_000);
    await bg.stopAll(true);
    await waitUntil(() => pidsWith(marker).length === 0, 'no daemon left', 5_000);
  }, 30_000);

  it('a stop in the first instant after the start leaves nothing either', async () => {
    const marker = '13579.2';
    for (let i = 0; i < 5; i++) {
      const id = idOf(await call('run', `sleep ${marker}`, null, true));
      await call('run_stop', id);
    }
    // What outlived the outer bwrap would stay: waiting for none left fails then.
    await waitUntil(() => pidsWith(marker).length === 0, 'no sleep left', 5_000);
  }, 30_000);

  it('an unknown id names the ones there are', async () => {
    await call('run', 'echo hi', null, true);
    expect(await call('run_output', 'bg9')).toMatch(/No background command "bg9". Known: bg1 /);
  });
});
