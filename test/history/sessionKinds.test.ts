/**
 * Sessions record who they are for: the user's (interactive) or a script's (`cogito -p`).
 * Each store resumes only its own kind, a session from before kinds is the user's, and the
 * user opening a script's session makes it theirs (a script never makes the user's its own).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeMessage } from '../../src/core/messages.js';
import { SessionStore } from '../../src/history/sessionStore.js';
import { useTmpSessionStore } from './tmpDir.js';

const WS = '/projects/notes';

describe('session kinds', () => {
  const tmp = useTmpSessionStore();
  const storeOf = (kind: 'interactive' | 'print'): SessionStore =>
    new SessionStore(tmp.dir, { workspace: WS, kind });
  /** Makes `s` the most recently used (its history written later than the others'). */
  const touch = (dir: string, at: number): void => {
    const file = path.join(dir, 'history.jsonl');
    fs.utimesSync(file, at / 1000, at / 1000);
  };

  it("the screen resumes the user's latest session, -p the latest script's", async () => {
    const user = await storeOf('interactive').create();
    user.append(makeMessage('user', 'my conversation'));
    const script = await storeOf('print').create();
    script.append(makeMessage('user', 'nightly report'));
    touch(user.dir, Date.now() - 60_000);
    touch(script.dir, Date.now());

    const listed = await storeOf('interactive').list();
    expect(listed.map((s) => [s.id, s.kind])).toEqual([
      [script.id, 'print'],
      [user.id, 'interactive'],
    ]);
    expect((await storeOf('interactive').latest())?.id).toBe(user.id);
    expect((await storeOf('interactive').openLatestOrCreate()).id).toBe(user.id);
    expect((await storeOf('print').latest())?.id).toBe(script.id);
  });

  it('a session without a kind (made before kinds) is the user’s', async () => {
    const old = await storeOf('interactive').create();
    const metaFile = path.join(old.dir, 'meta.json');
    const meta = JSON.parse(fs.readFileSync(metaFile, 'utf8')) as Record<string, unknown>;
    delete meta.kind;
    fs.writeFileSync(metaFile, JSON.stringify(meta));
    expect(storeOf('interactive').describe(old.id)?.kind).toBe('interactive');
    expect((await storeOf('interactive').latest())?.id).toBe(old.id);
    expect(await storeOf('print').latest()).toBeUndefined();
  });

  it("the user opening a script's session makes it theirs; a script never takes the user's", async () => {
    const script = await storeOf('print').create();
    const user = await storeOf('interactive').create();
    // A script continuing the user's session (--session ID) leaves it the user's.
    storeOf('print').adopt(await storeOf('print').open(user.id));
    expect(storeOf('print').describe(user.id)?.kind).toBe('interactive');
    // The user opening the script's session (/resume ID) makes it interactive.
    storeOf('interactive').adopt(await storeOf('interactive').open(script.id));
    expect(storeOf('interactive').describe(script.id)?.kind).toBe('interactive');
    expect(storeOf('interactive').describe(script.id)?.workspace).toBe(WS);
  });
});
