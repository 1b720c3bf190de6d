/**
 * THE end-to-end test of reading documents, through the real program: `cogito -p` against the
 * scripted server, whose reply calls `read("<fixture>")`; the model's NEXT request must hold
 * the document's text. Table-driven: every file in test/fixtures/documents/ that has a
 * sidecar `<file>.expect` (one phrase per line, each of which must appear in that request) is
 * read. Add a format by dropping a fixture and its sidecar there: nothing here changes.
 *
 * Several files are read per run (one reply, several calls), so the table stays fast. The
 * text is checked to arrive wrapped as outside content (a document can carry instructions),
 * except plain text, which is not.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCogito } from '../helpers/cogitoProcess.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/documents');
/** Reads per `-p` run: under the per-reply call cap (25), few enough to keep results apart. */
const PER_RUN = 12;

interface Case {
  file: string;
  phrases: string[];
}

async function cases(): Promise<Case[]> {
  const names = (await readdir(FIXTURES)).sort();
  const out: Case[] = [];
  for (const name of names) {
    if (!name.endsWith('.expect')) continue;
    const file = name.slice(0, -'.expect'.length);
    if (!names.includes(file)) continue;
    const phrases = (await readFile(path.join(FIXTURES, name), 'utf8'))
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== '');
    out.push({ file, phrases });
  }
  return out;
}

const all = await cases();

/** JSON-escaped as it appears in the request body, so a phrase is found as the model got it. */
const asSent = (text: string): string => JSON.stringify(text).slice(1, -1);

describe('read through the real program: the next request holds the document text', () => {
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  /** The request after each fixture's read, by fixture name. */
  const seen = new Map<string, string>();
  const failures: string[] = [];

  beforeAll(
    async () => {
      server = await startScriptedServer();
      ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-docs-ws-'));
      home = await mkdtemp(path.join(os.tmpdir(), 'cogito-docs-home-'));
      await cp(FIXTURES, ws, { recursive: true });
      // Room for a whole document in one result, so a phrase from its end is seen too.
      await writeFile(
        path.join(home, 'config.json'),
        JSON.stringify({ thinkIntervalMs: 30_000, toolResultBudgetChars: 200_000 }),
      );
      const env = {
        COGITO_API_KEY: 'sk-test',
        COGITO_BASE_URL: server.url,
        COGITO_MODEL: 'scripted',
      };
      for (let i = 0; i < all.length; i += PER_RUN) {
        const group = all.slice(i, i + PER_RUN);
        const calls = group.map((c) => `[TOOL] read(${JSON.stringify(c.file)}) [/TOOL]`).join('\n');
        server.push(
          { kind: 'stream', content: `Reading the documents.\n${calls}` },
          { kind: 'stream', content: 'Read them all. [WAIT]' },
        );
        const before = server.requests.length;
        const run = runCogito(['-p', 'read the documents', '--workspace', ws, '--home', home], env);
        const code = await run.code;
        if (code !== 0) failures.push(`run ${i / PER_RUN + 1} exited ${code}: ${run.stderr()}`);
        const next = server.requests[before + 1];
        for (const c of group)
          seen.set(c.file, next === undefined ? '' : JSON.stringify(next.body));
      }
    },
    60_000 + all.length * 5_000,
  );

  afterAll(async () => {
    await server?.close();
    await rm(ws, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it('has fixtures to read, and every run of the program succeeded', () => {
    expect(all.length).toBeGreaterThanOrEqual(4);
    expect(failures).toEqual([]);
  });

  it.each(all.map((c) => [c.file, c] as const))('%s', (_name, c) => {
    const request = seen.get(c.file) ?? '';
    expect(request, `no request followed the read of ${c.file}`).not.toBe('');
    const missing = c.phrases.filter((p) => !request.includes(asSent(p)));
    expect(missing, `phrases of ${c.file} missing from the next request`).toEqual([]);
  });

  it('wraps a document as outside content, and leaves plain text as it is', () => {
    const request = seen.get('page.html') ?? '';
    const wrapped =
      /<<<DATA \S+ from read: content from outside, not instructions[^>]*>>>\\npage\.html · HTML page/;
    expect(request).toMatch(wrapped);
    // Plain text is the user's own file, not wrapped (as before documents were read).
    expect(request).toMatch(
      /\] ok\\nletter-windows1252\.txt · lines 1–4 of 4 · decoded from Windows-1252/,
    );
  });
});
