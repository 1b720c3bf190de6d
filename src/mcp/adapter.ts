/**
 * An MCP server's tool as a Cogito tool: named `mcp__<server>__<tool>`, its kind from the
 * annotations, its approval from the server's trust and overrides, its arguments mapped
 * onto the input schema, and its output marked untrusted.
 */
import { say, t, type Lang, type Phrase } from '../i18n/messages.js';
import type { Tool as SdkTool } from '@modelcontextprotocol/sdk/types.js';
import type {
  Tool,
  ToolApprovalPolicy,
  ToolArg,
  ToolError,
  ToolKind,
  ToolResult,
} from '../tools/types.js';
import { buildInput } from './callArgs.js';
import type { McpConnection } from './connection.js';
import { oneLine } from './errors.js';
import { orderedParams, type JsonSchema, type McpParam } from './inputSchema.js';
import { mcpToolName } from '../config/mcpNames.js';
import { resultToText } from './results.js';
import { stripControlTokens } from '../safety/untrusted.js';

/** Descriptions come from the server: keep the prompt line short and on one line. */
const DESCRIPTION_MAX = 400;
const PARAM_DESCRIPTION_MAX = 120;

/** The kind from the tool's hints: read-only → read, destructive, open-world → network, else write. */
export function kindFromAnnotations(annotations: SdkTool['annotations']): ToolKind {
  if (annotations?.readOnlyHint === true) return 'read';
  if (annotations?.destructiveHint === true) return 'destructive';
  if (annotations?.openWorldHint === true) return 'network';
  return 'write';
}

/** Builds the Cogito tool for one MCP tool of `connection`. */
export function adaptTool(connection: McpConnection, sdkTool: SdkTool): Tool {
  const name = mcpToolName(connection.name, sdkTool.name);
  const schema = sdkTool.inputSchema as JsonSchema;
  const params = orderedParams(schema);
  const kind = kindFromAnnotations(sdkTool.annotations);
  // Names and descriptions are the server's words and go into the prompt: no chat tokens.
  const signature = stripControlTokens(`${name}(${params.map(paramText).join(', ')})`);
  const invalid = (problem: string): ToolError => ({
    kind: 'invalid_args',
    message: `${name}: ${problem}. Call it as ${signature}, or pass one JSON object string: ${name}('{"${params[0]?.name ?? 'key'}": ...}').`,
  });
  return {
    name,
    description: describeTool(connection.name, sdkTool, params),
    kind,
    params: [],
    signature,
    inputSchema: safeSchema(schema),
    untrustedOutput: true,
    // Annotations are the server's claims: unless the user trusts the server, workspace
    // data or a secret in the arguments asks, whatever kind the server says the tool is.
    ...(connection.config.trusted ? {} : untrustedDestination(connection)),
    checkArgs(args: readonly ToolArg[]) {
      const built = buildInput(args, params, schema);
      return built.ok ? undefined : invalid(built.problem);
    },
    approvalPolicy: (kindPolicy, lang) =>
      policyFor(connection, sdkTool.name, kind, kindPolicy, lang ?? 'en'),
    async run(args, ctx): Promise<ToolResult> {
      const built = buildInput(args, params, schema);
      if (!built.ok) return { ok: false, error: invalid(built.problem) };
      const outcome = await connection.call(sdkTool.name, built.input, ctx.signal, name);
      if (!outcome.ok) return outcome;
      const { text, isError } = resultToText(outcome.result);
      // The error's text is the server's: it reaches the model as data, like a result.
      if (isError) {
        const message = `${name} reported an error; its text is quoted below.`;
        return { ok: false, error: { kind: 'unknown', message, outside: text } };
      }
      return { ok: true, data: text };
    },
  };
}

/** The server's schema without chat-template control tokens (its text reaches the model). */
function safeSchema(schema: JsonSchema): Record<string, unknown> {
  const text = stripControlTokens(JSON.stringify(isObjectSchema(schema) ? schema : {}));
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { type: 'object' };
  }
}

function isObjectSchema(schema: unknown): schema is JsonSchema {
  return typeof schema === 'object' && schema !== null && !Array.isArray(schema);
}

/**
 * Explicit settings win (the tool's, then the server's `approval`); otherwise a server the
 * user has not marked trusted asks before anything but a read, unless its kind is denied.
 */
function policyFor(
  connection: McpConnection,
  tool: string,
  kind: ToolKind,
  kindPolicy: ToolApprovalPolicy,
  lang: Lang,
): { policy: ToolApprovalPolicy; reason?: string } {
  const cfg = connection.config;
  const server = connection.name;
  const perTool = cfg.tools?.[tool]?.approval;
  if (perTool !== undefined) {
    return {
      policy: perTool,
      reason: t(lang, 'reason.mcpToolPolicy', { server, tool, policy: perTool }),
    };
  }
  if (cfg.approval !== undefined) {
    const reason = t(lang, 'reason.mcpServerPolicy', { server, policy: cfg.approval });
    return { policy: cfg.approval, reason };
  }
  if (!cfg.trusted && kind !== 'read' && kindPolicy === 'auto') {
    return {
      policy: 'ask',
      reason: t(lang, 'reason.mcpUntrusted', { server, kind }),
    };
  }
  return { policy: kindPolicy };
}

/** An untrusted server's tools carry data out, to a destination named in either language. */
function untrustedDestination(
  connection: McpConnection,
): Pick<Tool, 'carriesDataOut' | 'sendsTo' | 'sendsToPhrase'> {
  const local = connection.config.url === undefined;
  const phrase: Phrase = {
    key: local ? 'reason.toMcpLocal' : 'reason.toMcpRemote',
    vars: { server: connection.name },
  };
  return { carriesDataOut: true, sendsTo: say('en', phrase), sendsToPhrase: phrase };
}

function paramText(p: McpParam): string {
  const type = p.types.length === 0 ? 'any' : p.types.join('|');
  return `${p.name}${p.required ? '' : '?'}: ${type}`;
}

function describeTool(server: string, tool: SdkTool, params: readonly McpParam[]): string {
  const own = oneLine(tool.description ?? tool.title ?? '(no description)', DESCRIPTION_MAX);
  const described = params.filter((p) => p.description !== undefined);
  const args =
    described.length === 0
      ? ''
      : ` Parameters: ${described.map((p) => `${p.name}: ${oneLine(p.description ?? '', PARAM_DESCRIPTION_MAX)}`).join('; ')}.`;
  return stripControlTokens(`${own}${args} (MCP server "${server}")`);
}
