/**
 * A background agent that stops on an error nothing caught tells the user once, by the
 * desktop's notification, and ends with exit code 1, never lingering: real processes (the
 * fixture has the agent's crash guard and notifier) and a fake `notify-send` on PATH.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeNotifier, type FakeNotifier } from '../notify/fakeNotifier.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TSX = pathToFileURL(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'daemon', 'crashingAgent.ts');

let fake: FakeNotifier | undefined;
afterEach(async () => {
  await fake?.dispose();
  fake = undefined;
});

async function crash(how: string): Promise<{ code: number | null; calls: unknown[] }> {
  fake = await createFakeNotifier();
  const child = spawn(process.execPath, ['--import', TSX, FIXTURE, how], {
    env: fake.env,
    stdio: 'ignore',
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, calls: await fake.calls() };
}

// The escape and the bell are gone (the escape became a space), the lines joined.
const STOPPED = 'Stopped: an unexpected error: disk full ]0;pwned second line';

describe('the crash guard', () => {
  it.each(['throw', 'reject'])(
    'an error nothing caught (%s): one notification, exit 1',
    async (how) => {
      const r = await crash(how);
      expect(r.code).toBe(1);
      expect(r.calls).toEqual([['--app-name=Cogito', '--', 'Cogito', STOPPED]]);
    },
    60_000,
  );

  it('a second error while stopping is not a second notification', async () => {
    const r = await crash('twice');
    expect(r.code).toBe(1);
    expect(r.calls).toEqual([['--app-name=Cogito', '--', 'Cogito', STOPPED]]);
  }, 60_000);

  it('a stop that never finishes is ended by the deadline', async () => {
    const r = await crash('hang');
    expect(r.code).toBe(1);
    expect(r.calls).toEqual([]);
  }, 60_000);
});
