/**
 * Decides, before the full-screen app is built, whether the wizard runs, and gathers what
 * it starts from. Reads only; writes nothing.
 */
import { loadConfig, type ConfigFlags } from '../config/load.js';
import { builtinPersonasDir } from '../config/paths.js';
import { resolveLanguage } from '../i18n/messages.js';
import { loadPersonas, type Persona } from '../personas/load.js';
import { initialAnswers } from './answers.js';
import { needsSetup } from './firstRun.js';
import type { Answers } from './wizard.js';

export type SetupPlan =
  | { run: false }
  | {
      run: true;
      home: string;
      /** config.json's path, shown to the user. */
      file: string;
      answers: Answers;
      personas: Persona[];
    };

export interface PrepareOptions {
  flags: ConfigFlags & { setup?: boolean };
  env: NodeJS.ProcessEnv;
  cwd?: string;
}

/**
 * `{ run: false }` when no wizard is needed, and also when the config cannot be read: then
 * the app's own start reports the problem (a broken file is never overwritten, so the
 * wizard is not the place to fix it).
 */
export function prepareSetup(opts: PrepareOptions): SetupPlan {
  const loaded = loadConfig({
    env: opts.env,
    flags: opts.flags,
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
  });
  if (!loaded.ok) return { run: false };
  const run = needsSetup({
    exists: loaded.exists,
    setupFlag: opts.flags.setup === true,
    env: opts.env,
    flags: opts.flags,
  });
  if (!run) return { run: false };
  const { personas } = loadPersonas({ builtinDir: builtinPersonasDir(), home: loaded.home });
  return {
    run: true,
    home: loaded.home,
    file: loaded.file,
    answers: initialAnswers({
      language: resolveLanguage(loaded.config.language, opts.env),
      file: loaded.fileValues,
    }),
    personas,
  };
}
