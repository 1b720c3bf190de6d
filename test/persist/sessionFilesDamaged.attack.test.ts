/**
 * Issue #40, the per-file table, as the attack: after a real `-p` run made a session (a
 * reply, a file created through the create tool, its change journal, its ledger), one of the
 * session's state files is damaged (cut by 4 bytes, junk bytes, a folder in its place,
 * deleted), then `-p -c` continues the session through the real program. For each: the run
 * goes on, the damaged original is kept aside byte for byte (a folder whole) before anything
 * new is written, what was readable is still there, and the file reads whole afterwards.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCogito } from '../helpers/cogitoProcess.js';
import { HOWS, damage } from '../helpers/damageFile.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';

/** The session's JSON-lines state files: the conversation, the cycle ledger, the undo journal. */
const FILES = ['history.jsonl', 'ledger.jsonl', 'changes.jsonl'];

describe('a damaged session state file is kept aside, and the session goes on', () => {
  let server: ScriptedServer;
  let tmp: string;
  let ws: string;
  let home: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    server = await startScriptedServer();
    tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), 'cogito-sfdmg-')));
    ws = path.join(tmp, 'ws');
    home = path.join(tmp, 'home');
    await mkdir(ws);
    await writeFile(path.join(ws, 'notes.md'), 'meeting on friday\n');
    env = { COGITO_API_KEY: 'k', COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' };
  });
  afterEach(async () => {
    await server.close();
    await rm(tmp, { recursive: true, force: true });
  });

  const print = async (
    prompt: string,
    ...flags: string[]
  ): Promise<{ code: number | null; stderr: string }> => {
    const run = runCogito(
      ['-p', prompt, ...flags, '--workspace', ws, '--home', home, '--approve', 'write'],
      env,
    );
    const code = await run.code;
    return { code, stderr: run.stderr() };
  };

  const sessionDir = async (): Promise<string> => {
    const root = path.join(home, 'data', 'sessions');
    const ids = (await readdir(root)).filter((n) => !n.startsWith('.'));
    expect(ids).toHaveLength(1);
    return path.join(root, ids[0]!);
  };

  for (const name of FILES) {
    it.each(HOWS)(
      `${name} %s`,
      async (how) => {
        server.push(
          { kind: 'stream', content: '[TOOL] create("summary.md", "friday meeting") [/TOOL]' },
          { kind: 'stream', content: 'Wrote summary.md. [WAIT]' },
        );
        const first = await print('summarise the notes into summary.md');
        expect(first.code, first.stderr).toBe(0);
        const dir = await sessionDir();
        const file = path.join(dir, name);
        expect(existsSync(file), `${name} after the first run`).toBe(true);
        const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
        // What was readable after the damage: every line for junk after the last one, all but
        // the cut one for a cut.
        const readable =
          how === 'junk bytes' ? lines : how === 'cut by 4 bytes' ? lines.slice(0, -1) : [];
        const original = await damage(file, how);

        server.push({ kind: 'stream', content: 'Still here. [WAIT]' });
        const second = await print('and now?', '-c');
        expect(second.code, second.stderr).toBe(0);
        expect(await sessionDir()).toBe(dir);

        const ext = path.extname(name);
        const copies = (await readdir(dir)).filter(
          (n) => n.startsWith(path.basename(name, ext) + '.corrupt-') && n.endsWith(ext),
        );
        if (original === undefined) {
          expect(copies).toEqual([]);
        } else {
          expect(copies, `a copy of the damaged ${name}`).toHaveLength(1);
          const aside = path.join(dir, copies[0]!);
          // Every file's warning, the ledger's too, reaches -p's stderr.
          expect(second.stderr, 'the warning names the copy').toContain(aside);
          if (original === 'folder') {
            expect((await stat(aside)).isDirectory()).toBe(true);
            expect(await readFile(path.join(aside, 'inside.txt'), 'utf8')).toBe('keep me');
          } else {
            expect(await readFile(aside)).toEqual(original);
          }
        }

        // The undo journal is written only when a change is made, and the second run made none.
        if (how === 'deleted' && name === 'changes.jsonl') {
          expect(existsSync(file)).toBe(false);
          return;
        }
        // The file reads whole now: every line is JSON, and every readable line is still there.
        const now = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
        for (const line of now) expect(() => JSON.parse(line), line).not.toThrow();
        for (const line of readable) expect(now).toContain(line);
        if (name === 'history.jsonl') expect(now.join('\n')).toContain('and now?');
      },
      60_000,
    );
  }
});
