/**
 * What `run` asks before it runs: the card shows the whole command, the folder and whether
 * the sandbox is on; read-only commands pass unasked under `ask`; a command without the
 * sandbox asks every time, even under `auto`; without a sandbox nothing asks (run refuses).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRunTool, type RunSettings } from '../../../src/tools/process/run.js';
import type { ApprovalNeed, Tool, ToolArg } from '../../../src/tools/types.js';
import { Workspace } from '../../../src/tools/workspace.js';

const SETTINGS: RunSettings = {
  timeoutMs: 20_000,
  maxOutputChars: 2_000,
  sandbox: 'bubblewrap',
  maxBackground: 4,
  backgroundTimeoutMs: 60_000,
  readOnlyCommands: ['npm ls'],
};
const hasBwrap = existsSync('/usr/bin/bwrap') || process.env.CI === 'true';

describe.runIf(process.platform === 'linux' && hasBwrap)('run approval', () => {
  let root: string;
  let ws: Workspace;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'cogito-run-approval-'));
    ws = await Workspace.open(root);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const need = async (
    tool: Tool,
    kindPolicy: 'ask' | 'auto',
    args: ToolArg[],
  ): Promise<{ policy: string; need: ApprovalNeed | string | undefined }> => {
    const policy = tool.approvalPolicy!(kindPolicy).policy;
    const n = await tool.needsApproval!(args, {
      workspace: ws,
      signal: AbortSignal.timeout(10_000),
    });
    return { policy, need: n };
  };

  it('a writing command asks with the whole command, the folder and the sandbox shown', async () => {
    const tool = createRunTool({ settings: SETTINGS, hidden: [] });
    const { need: n } = await need(tool, 'ask', ['rm -rf build && make']);
    expect(typeof n).toBe('object');
    const card = n as ApprovalNeed;
    expect(card.detail).toContain('$ rm -rf build && make');
    expect(card.detail).toContain(`cwd: ${ws.root}`);
    expect(card.detail).toMatch(/sandbox: on/);
    expect(card.everyTime).toBeUndefined();
  });

  it('a background command says so on the card, and that undo does not cover it', async () => {
    const tool = createRunTool({ settings: SETTINGS, hidden: [] });
    const { need: n } = await need(tool, 'ask', ['npm run dev', null, true]);
    expect((n as ApprovalNeed).detail).toContain('in the background (not covered by /undo)');
  });

  it('read-only commands, built-in and configured, pass unasked; chained ones ask', async () => {
    const tool = createRunTool({ settings: SETTINGS, hidden: [] });
    expect((await need(tool, 'ask', ['git status'])).need).toBeUndefined();
    expect((await need(tool, 'ask', ['npm ls --depth 0'])).need).toBeUndefined();
    expect((await need(tool, 'ask', ['git status; rm x'])).need).toBeDefined();
  });

  it('unsandboxed, every command asks every time, even under auto', async () => {
    const tool = createRunTool({ settings: { ...SETTINGS, sandbox: 'off' }, hidden: [] });
    const { need: n } = await need(tool, 'auto', ['ls']);
    const card = n as ApprovalNeed;
    expect(card.everyTime).toBe(true);
    expect(card.detail).toMatch(/sandbox: OFF/);
  });

  it('with no sandbox nothing asks, and run refuses with the fix', async () => {
    const tool = createRunTool({
      settings: { ...SETTINGS, bwrapPath: path.join(root, 'no-bwrap') },
      hidden: [],
    });
    expect((await need(tool, 'ask', ['make'])).need).toBeUndefined();
    const r = await tool.run(['make'], { workspace: ws, signal: AbortSignal.timeout(10_000) });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe('unsupported');
      expect(r.error.message).toMatch(/bubblewrap is not installed/);
    }
  });
});
