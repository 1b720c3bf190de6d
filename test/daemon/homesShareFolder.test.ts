/**
 * The attack: one folder, two app homes. `cogito start --home A` runs an agent there; a
 * second `cogito start --home B` in the same folder must be refused (exit 3, naming the pid
 * that works there), and so must a full `cogito -p -c` with home B: the folder's lock holds
 * for every home, not only the home that took it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listEntries } from '../../src/daemon/registry.js';
import { backgroundFolder, type BackgroundFolder } from '../helpers/backgroundFolder.js';
import { runCogito } from '../helpers/cogitoProcess.js';

describe('one folder, two homes', () => {
  let f: BackgroundFolder;
  beforeEach(async () => {
    f = await backgroundFolder();
  });
  afterEach(async () => {
    await f.close();
  });

  it('a second home cannot run another agent in the folder', async () => {
    const agent = await f.startAgent();
    const other = path.join(f.tmp, 'other-home');
    await mkdir(other);
    await writeFile(path.join(other, 'config.json'), '{}');
    const env = {
      COGITO_API_KEY: 'sk-test',
      COGITO_BASE_URL: f.server.url,
      COGITO_MODEL: 'scripted',
    };
    const run = async (args: string[]) => {
      const r = runCogito([...args, '--home', other], env, { cwd: f.ws });
      const code = await r.code;
      return { code, out: r.stdout(), err: r.stderr() };
    };
    const second = await run(['start', '--think-interval', '600000']);
    expect(second.code, second.out + second.err).toBe(3);
    expect(second.err).toContain(`(pid ${agent.pid}`);
    expect(second.err).toContain('another app home');
    expect(listEntries(other)).toEqual([]);

    const print = await run(['-p', 'hello', '-c']);
    expect(print.code, print.out + print.err).toBe(3);
    expect(print.err).toContain(`(pid ${agent.pid}`);

    // Once the first agent stops, the other home may work there.
    expect((await f.cogito(['stop'])).code).toBe(0);
    const now = await run(['start', '--think-interval', '600000']);
    expect(now.code, now.err).toBe(0);
    expect((await run(['stop'])).code).toBe(0);
  }, 240_000);
});
