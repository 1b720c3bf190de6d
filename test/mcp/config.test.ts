import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'cogito-mcp-config-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

async function load(mcpServers: unknown) {
  await writeFile(path.join(home, 'config.json'), JSON.stringify({ mcpServers }));
  return loadConfig({ home, env: {}, cwd: home });
}

describe('mcpServers in config.json', () => {
  it('accepts the stdio and HTTP shapes users already have, with defaults', async () => {
    const loaded = await load({
      files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] },
      remote: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'x' } },
    });
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.config.mcpServers.files).toMatchObject({
      command: 'npx',
      disabled: false,
      trusted: false,
      timeoutMs: 60_000,
    });
    expect(loaded.config.mcpServers.remote?.url).toBe('https://mcp.example.com/mcp');
  });

  it('defaults to no servers', () => {
    const loaded = loadConfig({ home, env: {}, cwd: home });
    expect(loaded.ok && loaded.config.mcpServers).toEqual({});
  });

  const cases: { name: string; servers: unknown; field: string; problem: RegExp; fix: RegExp }[] = [
    {
      name: 'neither command nor url',
      servers: { fs: { args: ['x'] } },
      field: 'mcpServers.fs.command',
      problem: /neither is "url"/,
      fix: /Add "command" \(and "args"\) for a local server, or "url"/,
    },
    {
      name: 'both command and url',
      servers: { fs: { command: 'npx', url: 'http://127.0.0.1:1/mcp' } },
      field: 'mcpServers.fs.url',
      problem: /together with "command"/,
      fix: /Keep one of them/,
    },
    {
      name: 'a misspelt key',
      servers: { fs: { command: 'npx', arg: ['-y'] } },
      field: 'mcpServers.fs.arg',
      problem: /unknown setting in "mcpServers.fs"/,
      fix: /Did you mean "args"/,
    },
    {
      name: 'args as one string',
      servers: { fs: { command: 'npx', args: '-y pkg' } },
      field: 'mcpServers.fs.args',
      problem: /must be a list \[ ... \], got the text "-y pkg"/,
      fix: /square brackets/,
    },
    {
      name: 'a url that is not http',
      servers: { r: { url: 'ftp://example.com' } },
      field: 'mcpServers.r.url',
      problem: /not a web address/,
      fix: /full address/,
    },
    {
      name: 'a zero timeout',
      servers: { fs: { command: 'npx', timeoutMs: 0 } },
      field: 'mcpServers.fs.timeoutMs',
      problem: /whole number ≥ 1, got the number 0/,
      fix: /whole number ≥ 1/,
    },
    {
      name: 'an unknown approval',
      servers: { fs: { command: 'npx', approval: 'aks' } },
      field: 'mcpServers.fs.approval',
      problem: /"aks" is not one of the allowed values/,
      fix: /Did you mean "ask"/,
    },
    {
      name: 'two names that give the same tool prefix',
      servers: { 'my-fs': { command: 'a' }, my_fs: { command: 'b' } },
      field: 'mcpServers.my_fs',
      problem: /same tool prefix as the server "my-fs"/,
      fix: /Rename the server/,
    },
    {
      name: 'a list instead of an object',
      servers: [{ command: 'npx' }],
      field: 'mcpServers',
      problem: /must be an object/,
      fix: /Write it as an object/,
    },
  ];
  for (const c of cases) {
    it(`names the field and the fix: ${c.name}`, async () => {
      const loaded = await load(c.servers);
      expect(loaded.ok).toBe(false);
      if (loaded.ok) return;
      const issue = loaded.errors.find((e) => e.field === c.field);
      expect(issue, JSON.stringify(loaded.errors)).toBeDefined();
      expect(issue?.problem).toMatch(c.problem);
      expect(issue?.fix).toMatch(c.fix);
    });
  }
});
