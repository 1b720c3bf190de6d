/** Shorter strings are too likely to occur by chance to be worth replacing. */
const MIN_SECRET_LENGTH = 8;

/**
 * Replaces every occurrence of the given secrets (API keys) in `text`. Applied to tool
 * results before the model, the screen or the history see them: a key the agent stumbles
 * on in a file must not travel any further.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= MIN_SECRET_LENGTH && out.includes(secret))
      out = out.split(secret).join('[redacted secret]');
  }
  return out;
}
