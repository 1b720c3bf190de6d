/**
 * What a connection test concludes. The kinds are what the wizard can act on: a bad key
 * sends the user back to the key, unreachable back to the address, an unknown model back
 * to the model, a bad file back to the path. `message` is the technical detail (English,
 * key redacted); the screen shows a translated headline for the kind above it.
 */
export type VerdictKind = 'bad_key' | 'unreachable' | 'unknown_model' | 'bad_file' | 'other';

export type ConnectionVerdict =
  | { ok: true; /** A detail worth showing (e.g. the model file's name and size). */ note?: string }
  | { ok: false; kind: VerdictKind; message: string };

/** Injectable effects for the network checks; each defaults to the real thing. */
export interface HttpOptions {
  fetch?: typeof fetch;
  /** How long a request may take before the server counts as unreachable. */
  timeoutMs?: number;
}

/** A failed verdict (a small constructor that keeps call sites short). */
export function fail(kind: VerdictKind, message: string): ConnectionVerdict {
  return { ok: false, kind, message };
}
