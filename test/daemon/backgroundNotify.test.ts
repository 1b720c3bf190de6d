/**
 * A background agent reaches its user through the desktop, through the real program
 * (`cogito start` as a child process, a temp HOME whose PATH has a fake `notify-send` first,
 * the scripted server as the model): a `[WAIT]` reply, an approval and a budget pause are
 * each one `notify-send` call; a screen attached over the socket that reports focus gets
 * none; one that reports focus-out writes its own (terminal) notification, so the desktop
 * stays quiet; once it disconnects the desktop takes over again. A stop on an error (here:
 * the socket cannot be opened after the app was built) is notified once.
 */
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registryFile } from '../../src/daemon/places.js';
import { rawAgentClient, type RawAgentClient } from '../helpers/rawAgentClient.js';
import { runCogito } from '../helpers/cogitoProcess.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { waitUntil } from '../helpers/waitFor.js';
import { createFakeNotifier, type FakeNotifier } from '../notify/fakeNotifier.js';

/** A client on the agent's socket: says hello, subscribes, collects the events. */
async function connect(socketPath: string): Promise<RawAgentClient> {
  const c = await rawAgentClient(socketPath, { timeoutMs: 15_000 });
  await c.subscribe();
  return c;
}

describe('notifications of a background agent', () => {
  let server: ScriptedServer;
  let fake: FakeNotifier;
  let tmp: string;
  let ws: string;
  let home: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    server = await startScriptedServer();
    fake = await createFakeNotifier();
    tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), 'cogito-bgn-')));
    ws = path.join(tmp, 'project');
    home = path.join(tmp, 'home');
    await Promise.all([ws, home].map((d) => mkdir(d)));
    await writeFile(path.join(ws, 'old.txt'), 'old');
    await writeFile(path.join(ws, 'other.txt'), 'other');
    await writeFile(
      path.join(home, 'config.json'),
      JSON.stringify({ tokenBudgetPerHour: 200_000 }),
    );
    env = {
      HOME: tmp,
      PATH: fake.env.PATH!,
      FAKE_NOTIFY_LOG: fake.env.FAKE_NOTIFY_LOG!,
      COGITO_API_KEY: 'sk-test',
      COGITO_BASE_URL: server.url,
      COGITO_MODEL: 'scripted',
    };
  });
  afterEach(async () => {
    // Whatever a failed test left running goes.
    await runCogito(['stop', '--all', '--home', home], env, { cwd: ws }).code;
    await server.close();
    await fake.dispose();
    await rm(tmp, { recursive: true, force: true });
  });

  const cogito = async (args: string[]) => {
    const run = runCogito([...args, '--home', home], env, { cwd: ws });
    const code = await run.code;
    return { code, out: run.stdout(), err: run.stderr() };
  };
  const texts = async () => ((await fake.calls()) as string[][]).map((c) => c.at(-1));

  it('[WAIT], approval and budget pause notify once each; a focused screen silences them', async () => {
    server.push(
      { kind: 'stream', content: 'Which branch should I merge?\nmain or next. [WAIT]' },
      // While a focused screen is attached: an approval, nobody notified.
      { kind: 'stream', content: 'Cleaning up first.\n[TOOL] delete("old.txt") [/TOOL]' },
      // While it is attached but unfocused: its own terminal notification, no desktop one.
      { kind: 'stream', content: 'Deleted. Merge now? [WAIT]' },
      // Nobody attached: the desktop again. The step's tokens run over the hourly budget.
      {
        kind: 'stream',
        content: '[TOOL] delete("other.txt") [/TOOL]',
        usage: { prompt_tokens: 250_000, completion_tokens: 10 },
      },
    );
    const started = await cogito(['start', '--think-interval', '600000']);
    expect(started.code, started.err).toBe(0);
    const { socket } = JSON.parse(await readFile(registryFile(home, ws), 'utf8')) as {
      socket: string;
    };

    // No screen: the [WAIT] reply is a desktop notification with its first line.
    await waitUntil(async () => (await fake.calls()).length === 1, 'the [WAIT] call', 60_000);
    expect(await fake.calls()).toEqual([
      ['--app-name=Cogito', '--', 'Cogito', 'Which branch should I merge?'],
    ]);

    // A screen that has focus: the user is looking, the approval notifies nobody.
    const screen = await connect(socket);
    screen.send({ type: 'screen', focused: 'maybe' });
    screen.send({ type: 'screen', focused: true });
    screen.command({ type: 'submit', text: 'tidy up, then merge main' });
    const asked = await screen.waitForEvent('approval_request');
    // Focus lost: the screen writes the terminal's notification; the desktop stays quiet.
    screen.send({ type: 'screen', focused: false });
    screen.command({ type: 'answer_approval', answer: 'yes', id: cardId(asked) });
    await screen.waitForEvent('turn_end', 1, (e) => e.wait === true);
    expect(screen.errors()).toEqual(['a screen message needs "focused": true or false']);
    screen.close();

    // The screen is gone: the desktop again, for the approval and for the budget pause.
    const shell = await connect(socket);
    shell.command({ type: 'submit', text: 'yes, merge' });
    const again = await shell.waitForEvent('approval_request');
    shell.command({ type: 'answer_approval', answer: 'yes', id: cardId(again) });
    await shell.waitForEvent('state_changed', 1, (e) => e.to === 'PAUSED');
    await waitUntil(async () => (await fake.calls()).length >= 3, 'three calls', 60_000);
    shell.close();
    // The stop waits for notifications on their way: after it, every call is recorded.
    const stopped = await cogito(['stop']);
    expect(stopped.code, stopped.err).toBe(0);
    const all = await texts();
    expect(all).toHaveLength(3);
    expect(all[0]).toBe('Which branch should I merge?');
    expect(all[1]).toMatch(/^Approval needed: delete\("other.txt"\) \(.+\)$/);
    expect(all[2]).toMatch(/^Paused: .*hourly token budget/);
    // Four model calls: the budget stopped the fifth before it was made.
    expect(server.requests).toHaveLength(4);
  }, 300_000);

  it('a background agent that stops on an error says so once', async () => {
    server.setDefault(() => ({ kind: 'stream', content: 'Looked around.' }));
    // The app builds, then the socket's folder cannot be made: a file is in its place.
    await mkdir(path.join(home, 'data'), { recursive: true });
    await writeFile(path.join(home, 'data', 'run'), 'in the way');
    const run = await cogito(['start', '--foreground']);
    expect(run.code).toBe(3);
    expect(run.err).toContain('cannot open the socket');
    const calls = (await fake.calls()) as string[][];
    expect(calls).toHaveLength(1);
    expect(calls[0]).toEqual([
      '--app-name=Cogito',
      '--',
      'Cogito',
      expect.stringMatching(/^Stopped: cannot open the socket: .+/),
    ]);
  }, 120_000);
});

/** The id of the card an approval_request event carries (every answer names it). */
function cardId(event: Record<string, unknown>): number {
  return (event.request as { id: number }).id;
}
