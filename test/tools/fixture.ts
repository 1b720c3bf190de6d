/**
 * A real workspace in a temp folder for the file-tool tests, with an outside folder, a
 * sibling whose name starts with the workspace's (`ws-evil`), and symlinks pointing out.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Workspace } from '../../src/tools/workspace.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { createFileTools } from '../../src/tools/files/index.js';
import type { FileToolDeps } from '../../src/tools/files/index.js';
import type { ToolArg, ToolContext, ToolResult } from '../../src/tools/types.js';

export const SECRET = 'TOP-SECRET-CONTENT';

/** "你好，世界" in GBK, written by hand so the tests do not depend on an encoder. */
export const GBK_HELLO = Uint8Array.from([
  0xc4, 0xe3, 0xba, 0xc3, 0xa3, 0xac, 0xca, 0xc0, 0xbd, 0xe7,
]);

export interface Fixture {
  /** Real path of the temp folder holding everything. */
  base: string;
  /** Real path of the workspace root. */
  ws: string;
  /** A folder next to the workspace that must stay unreachable. */
  outside: string;
  /** `<base>/ws-evil`: shares the workspace's name as a prefix. */
  evil: string;
  workspace: Workspace;
  registry: ToolRegistry;
  ctx: ToolContext;
  /** Runs a tool through the registry and returns its result. */
  call(name: string, ...args: ToolArg[]): Promise<ToolResult>;
  /** Writes a file inside the workspace (parents made). */
  write(rel: string, data: string | Uint8Array): Promise<string>;
  cleanup(): Promise<void>;
}

/** Builds a fresh fixture; call `cleanup()` when done. */
export async function makeFixture(deps?: FileToolDeps): Promise<Fixture> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cogito-tools-')));
  const ws = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  const evil = path.join(base, 'ws-evil');
  for (const dir of [ws, outside, evil, path.join(ws, 'sub')])
    await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(outside, 'secret.txt'), SECRET);
  await fs.writeFile(path.join(evil, 'secret.txt'), SECRET);
  await fs.writeFile(path.join(ws, 'sub', 'a.txt'), 'hello from a\n');
  await fs.symlink(path.join(outside, 'secret.txt'), path.join(ws, 'linkfile'));
  await fs.symlink('../outside', path.join(ws, 'linkdir'));
  await fs.symlink(path.join(outside, 'nope.txt'), path.join(ws, 'dangling'));
  await fs.symlink('../../outside', path.join(ws, 'sub', 'deeplink'));
  await fs.symlink('sub', path.join(ws, 'inner-link'));

  const workspace = await Workspace.open(ws);
  const registry = new ToolRegistry(createFileTools(deps));
  const ctx: ToolContext = { workspace, signal: new AbortController().signal };
  return {
    base,
    ws,
    outside,
    evil,
    workspace,
    registry,
    ctx,
    call: async (name, ...args) => (await registry.run(name, args, ctx)).result,
    write: async (rel, data) => {
      const abs = path.join(ws, rel);
      await fs.mkdir(path.dirname(abs), { recursive: true });
      await fs.writeFile(abs, data);
      return abs;
    },
    cleanup: () => fs.rm(base, { recursive: true, force: true }),
  };
}

/** The text a successful result carries, or a failure that names what went wrong. */
export function text(result: ToolResult): string {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.kind}: ${result.error.message}`);
  return String(result.data);
}
