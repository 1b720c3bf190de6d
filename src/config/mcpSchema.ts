import { z } from 'zod';
import { APPROVAL_POLICIES } from './defaults.js';
import { sanitizeName } from './mcpNames.js';

/**
 * `mcpServers` in `config.json`, in the shape other agent tools use:
 * `{ "name": { "command": "node", "args": [...], "env": {...}, "cwd": "..." } }` for a local
 * (stdio) server, `{ "name": { "url": "https://…", "headers": {...} } }` for a remote one
 * (Streamable HTTP, falling back to the older SSE transport).
 */

const policy = z.enum(APPROVAL_POLICIES);

/** Per-tool settings, keyed by the tool's name as the server reports it. */
const toolSettingsSchema = z.strictObject({
  /** Overrides the kind's policy for this one tool. */
  approval: policy.optional(),
});

/** One server. Exactly one of `command` (stdio) and `url` (HTTP) must be given. */
export const mcpServerSchema = z
  .strictObject({
    /** Accepted for compatibility with other tools' files; the transport follows from it. */
    type: z.enum(['stdio', 'http', 'streamable-http', 'sse']).optional(),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    /** Relative to the workspace; the workspace when unset. */
    cwd: z.string().min(1).optional(),
    url: z.url({ protocol: /^https?$/ }).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    disabled: z.boolean().default(false),
    /** Per call (and for connecting); a call that takes longer is cancelled on the server. */
    timeoutMs: z.int().min(1).default(60_000),
    /**
     * A trusted server's tools follow the kind policies. An untrusted one asks for all but
     * read, and for any call carrying workspace data read this session or a secret shape,
     * whatever its annotations claim.
     */
    trusted: z.boolean().default(false),
    /** Overrides the policy for every tool of this server. */
    approval: policy.optional(),
    tools: z.record(z.string(), toolSettingsSchema).optional(),
  })
  .superRefine((s, ctx) => {
    const issue = (path: string, message: string, fix: string): void =>
      ctx.addIssue({ code: 'custom', path: [path], message, params: { fix } });
    if (s.command === undefined && s.url === undefined) {
      issue(
        'command',
        'is not set, and neither is "url": Cogito cannot tell how to reach this server',
        'Add "command" (and "args") for a local server, or "url" for a remote one.',
      );
    }
    if (s.command !== undefined && s.url !== undefined) {
      issue(
        'url',
        'is set together with "command"; a server is either local (command) or remote (url)',
        'Keep one of them: split it into two servers if you need both.',
      );
    }
    if (s.url !== undefined && s.type === 'stdio') {
      issue(
        'type',
        'is "stdio" but the server has a "url"',
        'Use "http" or "sse", or remove "type".',
      );
    }
    if (s.command !== undefined && s.type !== undefined && s.type !== 'stdio') {
      issue(
        'type',
        `is "${s.type}" but the server has a "command"`,
        'Use "stdio", or remove "type".',
      );
    }
  });

/** All servers, keyed by the name their tools are prefixed with. */
export const mcpServersSchema = z
  .record(z.string(), mcpServerSchema)
  .superRefine((servers, ctx) => {
    const seen = new Map<string, string>();
    for (const name of Object.keys(servers)) {
      const fix = 'Rename the server: letters, digits, "_" and "-" work best.';
      if (sanitizeName(name).replace(/_/g, '') === '') {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'is not a usable server name (it needs at least one letter or digit)',
          params: { fix },
        });
        continue;
      }
      const other = seen.get(sanitizeName(name));
      if (other !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `gives the same tool prefix as the server "${other}" (mcp__${sanitizeName(name)}__)`,
          params: { fix },
        });
      }
      seen.set(sanitizeName(name), name);
    }
  })
  .default({});

/** One server's validated settings. */
export type McpServerSettings = z.output<typeof mcpServerSchema>;

/** Every configured server by name. */
export type McpServersSettings = z.output<typeof mcpServersSchema>;
