/** How a tool call failed, in words for the model (re-exported by types.ts). */
export type ToolErrorKind =
  | 'invalid_args' // wrong arity or type; the model should fix the call
  | 'outside_workspace' // the path escapes the workspace
  | 'not_found'
  | 'exists' // would overwrite
  | 'too_large'
  | 'binary'
  | 'denied' // approval denied or policy deny
  | 'aborted'
  | 'timeout'
  | 'network'
  | 'unsupported' // e.g. platform without this capability
  | 'io'
  | 'unknown';

export interface ToolError {
  kind: ToolErrorKind;
  /** Cogito's own wording: never holds text a server chose. */
  message: string;
  /**
   * Text the failure quotes from outside (an HTTP reason phrase, an MCP server's error or
   * `isError` content, a stray body): the model sees it wrapped as data, like a page.
   */
  outside?: string;
}
