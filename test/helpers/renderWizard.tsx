/**
 * Renders the setup wizard at a fixed size with real services (pointed at a temp home and,
 * usually, a scripted server), and records how it ended.
 */
import React from 'react';
import { render } from 'ink-testing-library';
import { SetupWizard, type SetupOutcome } from '../../components/setup/SetupWizard.js';
import { builtinPersonasDir } from '../../src/config/paths.js';
import type { Lang } from '../../src/i18n/messages.js';
import { loadPersonas, type Persona } from '../../src/personas/load.js';
import type { SetupServices } from '../../src/setup/services.js';
import type { Answers } from '../../src/setup/wizard.js';
import { plain, waitFor, waitForFrame } from './waitForFrame.js';

export { KEY } from './renderApp.js';

export interface WizardHarness {
  frame(): string;
  /** Every frame written so far, without colour codes. */
  frames(): string[];
  press(...chunks: string[]): void;
  /** Types text one key at a time. */
  type(text: string): void;
  waitFor(predicate: (frame: string) => boolean, what?: string): Promise<string>;
  /** Resolves with the outcome once the wizard reports it. */
  done(): Promise<SetupOutcome>;
  outcomes: SetupOutcome[];
  unmount(): void;
}

export function blankAnswers(over: Partial<Answers> = {}): Answers {
  return {
    language: 'en',
    presetId: undefined,
    baseURL: '',
    apiKey: '',
    model: '',
    modelPath: '',
    persona: 'assistant',
    ...over,
  };
}

export function builtinPersonas(): Persona[] {
  return loadPersonas({ builtinDir: builtinPersonasDir() }).personas;
}

export async function renderWizard(opts: {
  services: SetupServices;
  initial?: Partial<Answers>;
  lang?: Lang;
  personas?: readonly Persona[];
  file?: string;
  columns?: number;
  rows?: number;
}): Promise<WizardHarness> {
  const outcomes: SetupOutcome[] = [];
  const r = render(
    <SetupWizard
      initial={blankAnswers({ language: opts.lang ?? 'en', ...opts.initial })}
      personas={opts.personas ?? builtinPersonas()}
      file={opts.file ?? '/home/u/cogito/config.json'}
      services={opts.services}
      columns={opts.columns ?? 100}
      rows={opts.rows ?? 30}
      onDone={(o) => outcomes.push(o)}
    />,
  );
  await waitFor(() => r.stdin.listenerCount('readable') > 0, 'the input hook to subscribe');
  await waitForFrame(r.lastFrame, (f) => f.length > 0);
  return {
    frame: () => plain(r.lastFrame()),
    frames: () => r.frames.map((f) => plain(f)),
    press: (...chunks) => {
      for (const c of chunks) r.stdin.write(c);
    },
    type: (text) => {
      for (const ch of text) r.stdin.write(ch);
    },
    waitFor: async (predicate, what) => {
      try {
        return await waitForFrame(r.lastFrame, predicate);
      } catch (err) {
        throw new Error(`${what ?? 'frame'}: ${(err as Error).message}`);
      }
    },
    done: async () => {
      await waitFor(() => outcomes.length > 0, 'the wizard to end');
      return outcomes[0]!;
    },
    outcomes,
    unmount: () => r.unmount(),
  };
}
