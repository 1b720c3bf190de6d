/**
 * Readable reasons for what goes wrong between Cogito and an MCP server, for `/mcp` and for
 * the tool results the model sees.
 */
import type { ToolError } from '../tools/types.js';

/**
 * JSON-RPC error codes the SDK uses (its `ErrorCode`), read off the error by number so that
 * this module does not load the SDK at start-up.
 */
const REQUEST_TIMEOUT = -32001;
const CONNECTION_CLOSED = -32000;
const INVALID_PARAMS = -32602;

function codeOf(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

/** Why connecting failed, in one line. */
export function connectReason(err: unknown, command: string | undefined): string {
  const e = err as NodeJS.ErrnoException & { cause?: { code?: string; message?: string } };
  if (e.code === 'ENOENT' && command !== undefined) {
    return `cannot start "${command}": no such program (check "command" and your PATH)`;
  }
  if (e.code === 'EACCES' && command !== undefined) {
    return `cannot start "${command}": permission denied`;
  }
  const message = err instanceof Error ? err.message : String(err);
  const cause = e.cause?.code ?? e.cause?.message;
  return oneLine(cause === undefined ? message : `${message} (${cause})`);
}

/** A failed `tools/call` as the error the model sees. */
export function callError(
  err: unknown,
  server: string,
  tool: string,
  signal: AbortSignal,
  timeoutMs: number,
): ToolError {
  if (signal.aborted) {
    return { kind: 'aborted', message: `${tool} was cancelled: the turn was interrupted.` };
  }
  const code = codeOf(err);
  if (code === REQUEST_TIMEOUT) {
    return {
      kind: 'timeout',
      message: `${tool} did not answer within ${timeoutMs} ms and was cancelled on the MCP server "${server}".`,
    };
  }
  if (code === CONNECTION_CLOSED) {
    return {
      kind: 'io',
      message: `the MCP server "${server}" stopped during the call; it is being restarted. Try again later, or carry on without it.`,
    };
  }
  // The error's message may be the server's own words: quoted apart, as data.
  const outside = oneLine(err instanceof Error ? err.message : String(err));
  if (code === INVALID_PARAMS) {
    return {
      kind: 'invalid_args',
      message: `${tool}: the arguments were refused; the reason is quoted below.`,
      outside,
    };
  }
  return {
    kind: 'unknown',
    message: `${tool} failed on the MCP server "${server}"; the error is quoted below.`,
    outside,
  };
}

/** Collapses whitespace and caps the length, for status lines and error messages. */
export function oneLine(text: string, max = 300): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
