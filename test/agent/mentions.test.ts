/**
 * `@file` mentions through the real program: `cogito -p "… @notes.md …"` against the
 * scripted server sends the file with the message, marked as data; a missing file and a
 * path outside the workspace get a note instead of content, and an e-mail address is no
 * mention.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findMentions } from '../../src/agent/mentions.js';
import { runCogito } from '../helpers/cogitoProcess.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';

describe('findMentions', () => {
  it('takes @paths after a space or at the start, without trailing punctuation, each once', () => {
    expect(findMentions('@a.md and see @docs/b.txt, also @a.md. mail me at x@y.org')).toEqual([
      'a.md',
      'docs/b.txt',
    ]);
    expect(findMentions('no mentions @ here')).toEqual([]);
  });
});

describe('@file mentions in print mode', () => {
  let server: ScriptedServer;
  let tmp: string;
  let ws: string;

  beforeEach(async () => {
    server = await startScriptedServer();
    tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), 'cogito-mention-')));
    ws = path.join(tmp, 'project');
    await mkdir(path.join(ws, 'docs'), { recursive: true });
    await writeFile(path.join(tmp, 'secret.txt'), 'TOP SECRET 42');
  });
  afterEach(async () => {
    await server.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it('attaches the mentioned files as data; a missing or outside file gets a note', async () => {
    await writeFile(path.join(ws, 'docs', 'plan.md'), '# Plan\nShip on Friday.\n');
    server.push({ kind: 'stream', content: 'Friday. [WAIT]' });
    const run = runCogito(
      [
        '--home',
        path.join(tmp, 'home'),
        '-p',
        'when do we ship per @docs/plan.md? see also @gone.md and @../secret.txt',
      ],
      { COGITO_API_KEY: 'sk-test', COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' },
      { cwd: ws },
    );
    expect(await run.code).toBe(0);
    expect(run.stdout()).toBe('Friday.\n');
    const messages = server.requests[0]!.body.messages as { role: string; content: string }[];
    const user = messages.filter((m) => m.role === 'user').at(-1)!.content;
    expect(user).toContain('when do we ship per @docs/plan.md?');
    expect(user).toContain('[Attached by the user: @docs/plan.md]');
    expect(user).toMatch(/<<<DATA [0-9a-f]+ from read[^\n]*\n[^]*Ship on Friday\.[^]*<<<END DATA/);
    expect(user).toMatch(/\[@gone\.md: not attached: [^\]]+\]/);
    expect(user).toMatch(/\[@\.\.\/secret\.txt: not attached: [^\]]+\]/);
    expect(user).not.toContain('TOP SECRET 42');
  }, 60_000);
});
