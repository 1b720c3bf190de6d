/**
 * A workspace with a journaled file-tool registry, for the undo tests: real files in temp
 * folders, the real tools wrapped the way the app wraps them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Journal } from '../../src/journal/journal.js';
import { withJournal } from '../../src/journal/wrap.js';
import { readTree, type FlatTree } from '../../src/journal/snapshot.js';
import { createFileTools, TRASH_DIR } from '../../src/tools/files/index.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { ToolArg, ToolResult } from '../../src/tools/types.js';
import { Workspace } from '../../src/tools/workspace.js';

export interface JournalFixture {
  ws: string;
  workspace: Workspace;
  journal: Journal;
  registry: ToolRegistry;
  /** Runs a tool call as turn `turn` would. */
  call(name: string, args: ToolArg[], turn?: string, trigger?: string): Promise<ToolResult>;
  /** Reopens the journal from disk, as a restart would. */
  reopen(): Journal;
  cleanup(): void;
}

/**
 * Temp file + rename like the real atomic write, without its fsync: the tests run thousands
 * of writes on a shared machine, and durability against power loss is not what they test.
 */
async function writeAtomic(abs: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${abs}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const mode = await fs.promises.stat(abs).then(
    (st) => st.mode & 0o7777,
    () => 0o666 & ~process.umask(),
  );
  await fs.promises.writeFile(tmp, data, { mode });
  await fs.promises.chmod(tmp, mode);
  await fs.promises.rename(tmp, abs);
}

export const LIMITS = { maxBytes: 500 * 1024 * 1024, maxFileBytes: 50 * 1024 * 1024 };

/** Builds the fixture; `seed` fills the workspace first; `window`: changes kept in memory. */
export async function journalFixture(
  seed: (ws: string) => void = () => {},
  limits = LIMITS,
  window?: number,
): Promise<JournalFixture> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-journal-'));
  const ws = path.join(base, 'ws');
  const session = path.join(base, 'home', 'data', 'sessions', 's1');
  const blobs = path.join(base, 'home', 'data', 'undo', 's1');
  fs.mkdirSync(ws, { recursive: true });
  seed(ws);
  const workspace = await Workspace.open(ws);
  const fx: JournalFixture = {
    ws,
    workspace,
    journal: Journal.open(session, blobs, limits, window),
    registry: new ToolRegistry(withJournal(createFileTools({ writeAtomic }), () => fx.journal)),
    async call(name, args, turn = 'turn-1', trigger = 'user') {
      const signal = new AbortController().signal;
      const change = { turn, trigger, callIndex: 0 };
      return (await fx.registry.run(name, args, { workspace, signal, change })).result;
    },
    reopen() {
      fx.journal.close();
      fx.journal = Journal.open(session, blobs, limits, window);
      return fx.journal;
    },
    cleanup() {
      fx.journal.close();
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
  return fx;
}

/** The workspace tree, trash aside, with file bytes and mode bits (by hash). */
export async function treeOf(ws: string): Promise<FlatTree> {
  const tree = await readTree(ws);
  const out: Record<string, FlatTree[string]> = {};
  for (const [k, v] of Object.entries(tree)) {
    if (k === TRASH_DIR || k.startsWith(`${TRASH_DIR}/`)) continue;
    out[k] = v;
  }
  return out;
}

/** Text, binary, empty, executable and CJK-named files, and a folder. */
export function seedMixed(ws: string): void {
  fs.writeFileSync(path.join(ws, 'notes.txt'), 'first line\nsecond line\n');
  fs.writeFileSync(path.join(ws, 'image.bin'), Buffer.from([0, 1, 2, 255, 254, 0, 7]));
  fs.writeFileSync(path.join(ws, 'empty.txt'), '');
  fs.writeFileSync(path.join(ws, 'run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
  fs.chmodSync(path.join(ws, 'run.sh'), 0o755);
  fs.writeFileSync(path.join(ws, '笔记.md'), '# 笔记\n你好，世界\n');
  fs.mkdirSync(path.join(ws, 'docs', 'old'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'docs', 'readme.md'), 'docs here\n');
  fs.writeFileSync(path.join(ws, 'docs', 'old', '旧.txt'), 'old stuff\n');
}
