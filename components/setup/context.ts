/** What every wizard step reads: the answers, the moves, the services and the room it has. */
import { createContext, useContext } from 'react';
import type { Persona } from '../../src/personas/load.js';
import type { DetectedServer } from '../../src/setup/detect.js';
import type { SetupServices } from '../../src/setup/services.js';
import type { Answers, StepId } from '../../src/setup/wizard.js';

export interface WizardApi {
  answers: Answers;
  /** Accept this step with what it answered. */
  next(patch?: Partial<Answers>): void;
  back(): void;
  /** Back to an earlier step (after a failed test). */
  goto(step: StepId): void;
  services: SetupServices;
  personas: readonly Persona[];
  /** Local servers found; undefined while still looking. */
  detected: readonly DetectedServer[] | undefined;
  /** config.json's path, named in hints. */
  file: string;
  width: number;
  /** Rows a list may take. */
  listRows: number;
}

/** Provided by <SetupWizard>; read with `useWizard`. */
export const WizardContext = createContext<WizardApi | undefined>(undefined);

/** The wizard's state and moves, for a step. */
export function useWizard(): WizardApi {
  const api = useContext(WizardContext);
  if (!api) throw new Error('a setup step was rendered outside <SetupWizard>');
  return api;
}
