/** When the full-screen app opens the setup wizard before anything else. */
import { envOverrides } from '../config/env.js';

interface FirstRunFacts {
  /** Whether config.json exists. */
  exists: boolean;
  /** `--setup` was given. */
  setupFlag: boolean;
  env: NodeJS.ProcessEnv;
  flags: { model?: string | undefined; baseUrl?: string | undefined };
}

/**
 * `--setup` always runs the wizard. Otherwise it runs on first run (no config.json), unless
 * the environment or the flags already say where the model is (COGITO_API_KEY,
 * COGITO_BASE_URL, COGITO_MODEL, --base-url, --model): someone who configured Cogito that
 * way, a script or a container, did not ask to be interviewed.
 */
export function needsSetup(f: FirstRunFacts): boolean {
  if (f.setupFlag) return true;
  if (f.exists) return false;
  const fromEnv = Object.keys(envOverrides(f.env).values).length > 0;
  const fromFlags = Boolean(f.flags.model?.trim() || f.flags.baseUrl?.trim());
  return !fromEnv && !fromFlags;
}
