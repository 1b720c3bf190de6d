/**
 * Issue #40, finding 2, as the attack: the saved reminders file is damaged (cut by 4 bytes,
 * junk bytes, a folder in its place, an entry that is not a reminder, deleted), then the model
 * sets a new reminder through the real program. Before the fix the warning was shown and the
 * next write renamed a new file over the damaged one: the user's reminders were gone. Now the
 * original is kept aside as `<name>.corrupt-<time>.json`, byte for byte, before anything new
 * is written, the warning names the copy, and every readable reminder goes on.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reminderFilePath } from '../../src/reminders/reminderFile.js';
import { runCogito } from '../helpers/cogitoProcess.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';

const later = Date.now() + 7 * 86_400_000;
const saved = (list: unknown[]): string =>
  `${JSON.stringify({ workspace: 'w', reminders: list }, null, 2)}\n`;
const two = [
  { id: 1, at: later, what: 'renew the passport', by: 'user' },
  { id: 2, at: later + 1000, what: 'pay the rent', by: 'model' },
];

interface Damage {
  name: string;
  /** Damages `file` (holding two reminders); returns what must be found kept aside. */
  make(file: string): Promise<Buffer | 'folder' | undefined>;
  /** The reminders that must still be in the file after the run, besides the new one. */
  readable: string[];
}

const damages: Damage[] = [
  {
    name: 'cut by 4 bytes',
    make: async (file) => {
      const body = Buffer.from(saved(two));
      const cut = body.subarray(0, body.length - 4);
      await writeFile(file, cut);
      return cut;
    },
    readable: [],
  },
  {
    name: 'junk bytes',
    make: async (file) => {
      const junk = Buffer.concat([
        Buffer.from(saved(two)).subarray(0, 40),
        Buffer.from([0xff, 0xfe, 0, 7]),
      ]);
      await writeFile(file, junk);
      return junk;
    },
    readable: [],
  },
  {
    name: 'an entry that is not a reminder',
    make: async (file) => {
      const body = Buffer.from(saved([two[0], { id: 'x', what: 42 }]));
      await writeFile(file, body);
      return body;
    },
    readable: ['renew the passport'],
  },
  {
    name: 'a folder in its place',
    make: async (file) => {
      await mkdir(file);
      await writeFile(path.join(file, 'inside.txt'), 'keep me');
      return 'folder';
    },
    readable: [],
  },
  { name: 'deleted', make: async () => undefined, readable: [] },
];

describe('a damaged reminders file is kept aside before anything new is written', () => {
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    server = await startScriptedServer();
    ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-remdmg-ws-'));
    home = await mkdtemp(path.join(os.tmpdir(), 'cogito-remdmg-home-'));
    env = { COGITO_API_KEY: 'k', COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' };
  });
  afterEach(async () => {
    await server.close();
    for (const d of [ws, home]) await rm(d, { recursive: true, force: true });
  });

  it.each(damages)('$name: the original survives, the warning names the copy', async (d) => {
    const file = reminderFilePath(path.join(home, 'data'), path.resolve(ws));
    await mkdir(path.dirname(file), { recursive: true });
    const original = await d.make(file);

    server.push(
      { kind: 'stream', content: 'Noted.\n[TOOL] remind("1d", "water the plants") [/TOOL]' },
      { kind: 'stream', content: 'Set. [WAIT]' },
    );
    const run = runCogito(
      [
        '-p',
        'remind me to water the plants',
        '--workspace',
        ws,
        '--home',
        home,
        '--think-interval',
        '0',
      ],
      env,
    );
    expect(await run.code, run.stderr()).toBe(0);

    const dir = path.dirname(file);
    const copies = (await readdir(dir)).filter((n) => n.includes('.corrupt-'));
    if (original === undefined) {
      // Nothing was there to keep: no copy, no warning, the new reminder is saved.
      expect(copies).toEqual([]);
      expect(run.stderr()).not.toContain('reminders');
    } else {
      expect(copies).toHaveLength(1);
      const copy = path.join(dir, copies[0]!);
      expect(copies[0]).toMatch(/^[0-9a-f]{16}\.corrupt-\d{4}-\d\d-\d\dT[\d-]+Z\.json$/);
      if (original === 'folder') {
        expect((await stat(copy)).isDirectory()).toBe(true);
        expect(await readFile(path.join(copy, 'inside.txt'), 'utf8')).toBe('keep me');
      } else {
        expect(await readFile(copy)).toEqual(original);
      }
      expect(run.stderr()).toContain(`the original was kept as ${copy}`);
    }
    expect(existsSync(file)).toBe(true);
    const now = JSON.parse(await readFile(file, 'utf8')) as { reminders: { what: string }[] };
    expect(now.reminders.map((r) => r.what).sort()).toEqual(
      [...d.readable, 'water the plants'].sort(),
    );
  });
});
