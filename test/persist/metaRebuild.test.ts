/**
 * The attack: a session's meta.json is damaged (`{bad`) or deleted while its history is
 * intact. `cogito -c -p` must resume that session (the model sees the earlier conversation),
 * rebuild meta.json with a warning on stderr, and keep the damaged file aside.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCogito } from '../helpers/cogitoProcess.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';

async function cogito(args: string[], env: Record<string, string>) {
  const run = runCogito(args, env);
  const code = await run.code;
  return { code, out: run.stdout(), err: run.stderr() };
}

/** Every message text the model was sent in request `n`. */
function sentTexts(server: ScriptedServer, n: number): string {
  const body = server.requests[n]!.body as { messages: { content: unknown }[] };
  return body.messages.map((m) => JSON.stringify(m.content)).join('\n');
}

describe('a lost meta.json is rebuilt and -c resumes the session', () => {
  let server: ScriptedServer;
  let base: string;
  beforeEach(async () => {
    server = await startScriptedServer();
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-meta-'));
  });
  afterEach(async () => {
    await server.close();
    fs.rmSync(base, { recursive: true, force: true });
  });

  for (const damage of [
    'damaged',
    'cut by 4 bytes',
    'junk bytes',
    'a folder',
    'deleted',
  ] as const) {
    it(`meta.json ${damage}`, async () => {
      const ws = path.join(base, 'ws');
      const home = path.join(base, 'home');
      fs.mkdirSync(ws);
      fs.mkdirSync(home);
      const env = { COGITO_API_KEY: 'k', COGITO_BASE_URL: server.url, COGITO_MODEL: 'm' };
      const common = ['--workspace', ws, '--home', home, '--think-interval', '0'];
      server.push({ kind: 'stream', content: 'Noted the plum. [WAIT]' });
      const first = await cogito(['-p', 'remember the word plum', ...common], env);
      expect(first.code, first.err).toBe(0);

      const sessions = path.join(home, 'data', 'sessions');
      const [id] = fs.readdirSync(sessions);
      const meta = path.join(sessions, id!, 'meta.json');
      const whole = fs.readFileSync(meta);
      if (damage === 'damaged') fs.writeFileSync(meta, '{bad');
      else if (damage === 'cut by 4 bytes') fs.writeFileSync(meta, whole.subarray(0, -4));
      else if (damage === 'junk bytes')
        fs.writeFileSync(meta, Buffer.concat([whole, Buffer.from([0xff, 0x00, 0x7b])]));
      else fs.rmSync(meta);
      if (damage === 'a folder') {
        fs.mkdirSync(meta);
        fs.writeFileSync(path.join(meta, 'inside.txt'), 'kept');
      }
      const damaged =
        damage === 'a folder' || damage === 'deleted' ? undefined : fs.readFileSync(meta);

      server.push({ kind: 'stream', content: 'The word was plum. [WAIT]' });
      const again = await cogito(['-p', 'which word?', '-c', ...common], env);
      expect(again.code, again.err).toBe(0);
      expect(again.err).toContain(`Session ${id}: its meta.json`);
      expect(again.err).toContain('rebuilt from the session folder and its history');
      // Resumed: the earlier conversation went to the model, and no second session exists.
      expect(sentTexts(server, 1)).toContain('remember the word plum');
      expect(fs.readdirSync(sessions)).toEqual([id]);
      const rebuilt = JSON.parse(fs.readFileSync(meta, 'utf8')) as Record<string, unknown>;
      expect(rebuilt).toMatchObject({
        id,
        firstUserLine: 'remember the word plum',
        workspace: fs.realpathSync(ws),
      });
      const files = fs.readdirSync(path.join(sessions, id!));
      const kept = files.filter((f) => f.startsWith('meta.corrupt-'));
      if (damaged) {
        // The damaged bytes are kept as they were, and the warning names the copy.
        expect(kept).toHaveLength(1);
        expect(fs.readFileSync(path.join(sessions, id!, kept[0]!))).toEqual(damaged);
        expect(again.err).toContain(kept[0]);
      } else if (damage === 'a folder') {
        expect(kept).toHaveLength(1);
        const inside = path.join(sessions, id!, kept[0]!, 'inside.txt');
        expect(fs.readFileSync(inside, 'utf8')).toBe('kept');
        expect(again.err).toContain(kept[0]);
      } else expect(kept).toEqual([]);

      // The next run resumes it quietly: the meta is whole again.
      server.push({ kind: 'stream', content: 'Still plum. [WAIT]' });
      const third = await cogito(['-p', 'and now?', '-c', ...common], env);
      expect(third.code, third.err).toBe(0);
      expect(third.err).not.toContain('meta.json');
      expect(sentTexts(server, 2)).toContain('which word?');
    }, 90_000);
  }
});
