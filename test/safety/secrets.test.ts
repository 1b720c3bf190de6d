/**
 * Secrets never travel. The configured API key sits in workspace files, and the attacks
 * from the issue try to get it out anyway: split over two lines by `edit` and read back,
 * cut by grep's line limit so a prefix shows, or written by the model itself into its reply
 * (which is shown, stored and exported). None may let the key, or a 12-character piece of
 * it, reach the model, the screen, the history or an export.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Redactor, StreamRedactor } from '../../src/core/redact.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { waitForStore } from '../helpers/waitFor.js';
import { runUntilWait } from './attackHarness.js';

const KEY = 'sk-proj-4fGh8Jk2Lm6Np0Qr3St7Uv1Wx5Yz9Ab';

/** Every 12-character piece of the key: none may appear anywhere. */
function pieces(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + 12 <= KEY.length; i++) {
    const piece = KEY.slice(i, i + 12);
    if (text.replace(/\s+/g, '').includes(piece)) found.push(piece);
  }
  return found;
}

let h: Harness;
afterEach(async () => h?.dispose());

describe('the key in workspace files', () => {
  it('edit splits the key over two lines; read sends back no piece of it', async () => {
    h = await createHarness({ config: { apiKey: KEY } });
    await writeFile(path.join(h.workspaceDir, 'settings.ini'), `api_key = ${KEY}\n`);
    h.server.push(
      { kind: 'stream', content: '[TOOL] edit("settings.ini", "Lm6Np", "Lm\\n6Np") [/TOOL]' },
      { kind: 'stream', content: '[TOOL] read("settings.ini") [/TOOL]' },
      { kind: 'stream', content: 'Done. [WAIT]' },
    );
    await runUntilWait(h, 'tidy the settings');
    // The edit really split it on disk.
    expect(await readFile(path.join(h.workspaceDir, 'settings.ini'), 'utf8')).toContain('Lm\n6Np');
    const seen = JSON.stringify(h.server.requests.map((r) => r.body.messages));
    expect(pieces(seen)).toEqual([]);
    expect(seen).toContain('[redacted secret]');
    const log = JSON.stringify(h.agent.store.getState().toolLog);
    expect(pieces(log)).toEqual([]);
  });

  it('grep cuts a long line after redacting it, so no prefix of the key shows', async () => {
    h = await createHarness({ config: { apiKey: KEY } });
    // The key starts at column 190: a cut at 200 before redaction would leave 10 characters.
    await writeFile(path.join(h.workspaceDir, 'long.txt'), `${'x'.repeat(186)}KEY=${KEY} tail\n`);
    h.server.push(
      { kind: 'stream', content: '[TOOL] grep("KEY", ".") [/TOOL]' },
      { kind: 'stream', content: 'ok [WAIT]' },
    );
    await runUntilWait(h, 'search');
    const result = h.server.requests[1]!.body.messages.at(-1).content as string;
    expect(result).toContain('long.txt:1:');
    expect(result).not.toContain(KEY.slice(0, 8));
  });

  it('grep cannot probe the key character by character', async () => {
    h = await createHarness({ config: { apiKey: KEY } });
    await writeFile(path.join(h.workspaceDir, 'k.txt'), `token ${KEY}\n`);
    h.server.push(
      { kind: 'stream', content: `[TOOL] grep("${KEY.slice(0, 9)}", ".") [/TOOL]` },
      { kind: 'stream', content: 'ok [WAIT]' },
    );
    await runUntilWait(h, 'search');
    expect(h.server.requests[1]!.body.messages.at(-1).content).toMatch(/0 matches|no match/i);
  });
});

describe("the key in the model's own reply", () => {
  it('is redacted before it is shown, stored or exported, even split across deltas', async () => {
    h = await createHarness({ config: { apiKey: KEY } });
    const shown: string[] = [];
    h.agent.subscribe((e) => {
      if (e.type === 'message_update') shown.push(e.delta);
    });
    h.server.push({
      kind: 'stream',
      content: ['Your key is sk-proj-4fGh8J', 'k2Lm6Np0Qr3St7Uv1Wx5Yz9Ab, keep it safe. [WAIT]'],
    });
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'what is my key?' });
    await waitForStore(
      h.agent.store,
      (s) => s.machine === 'AWAITING_INPUT' && !s.streaming,
      'wait',
    );
    await h.agent.idle();
    expect(pieces(shown.join(''))).toEqual([]);
    expect(shown.join('')).toContain('Your key is [redacted secret], keep it safe.');
    const stored = h.session.messages().map((m) => m.content);
    expect(pieces(stored.join('\n'))).toEqual([]);
    const dir = path.join(h.home, 'data');
    const files = await readdir(dir, { recursive: true });
    for (const f of files.filter((f) => f.endsWith('.jsonl'))) {
      expect(pieces(await readFile(path.join(dir, f), 'utf8'))).toEqual([]);
    }
    h.agent.send({ type: 'submit', text: '/export md' });
    await waitForStore(h.agent.store, (s) => !s.streaming && s.machine !== 'THINKING', 'export');
    await h.agent.idle();
    const exportsDir = path.join(h.home, 'data', 'exports');
    const exported = await readdir(exportsDir);
    expect(exported.length).toBe(1);
    const md = await readFile(path.join(exportsDir, exported[0]!), 'utf8');
    expect(md).toContain('[redacted secret]');
    expect(pieces(md)).toEqual([]);
  });
});

describe('the redactor', () => {
  const r = new Redactor([KEY]);
  it('catches the key split by a line break, a space or a CRLF', () => {
    for (const sep of ['\n', ' ', '\r\n', '\n    ']) {
      const text = `a ${KEY.slice(0, 15)}${sep}${KEY.slice(15)} b`;
      expect(r.redact(text)).toBe('a [redacted secret] b');
    }
  });
  it('catches a cut key: a 12-character prefix or suffix alone', () => {
    expect(r.redact(`…${KEY.slice(0, 12)}`)).toBe('…[redacted secret]');
    expect(r.redact(`${KEY.slice(-12)} end`)).toBe('[redacted secret] end');
  });
  it('leaves text without the key alone and is linear on large input', () => {
    const big = 'lorem ipsum '.repeat(200_000);
    const started = performance.now();
    expect(r.redact(big)).toBe(big);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
  it('an error message that echoes request fields loses the key', () => {
    const message = `400: invalid header "Authorization: Bearer ${KEY.slice(0, 20)}\n${KEY.slice(20)}"`;
    expect(pieces(r.redact(message))).toEqual([]);
  });
  it('the stream redactor holds back a key split over many deltas', () => {
    const s = new StreamRedactor(r);
    const text = `start ${KEY} end`;
    let out = '';
    for (const ch of text) out += s.push(ch);
    out += s.flush();
    expect(out).toBe('start [redacted secret] end');
  });
});
