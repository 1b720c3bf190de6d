/**
 * The first-run setup wizard: one screen per step, driven by the pure step machine in
 * src/setup/wizard.ts. It writes nothing until the confirm step saves; quitting (Ctrl+C) at
 * any point leaves the disk as it was.
 */
import React, { useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { Box, Text } from 'ink';
import { t } from '../../src/i18n/messages.js';
import type { Persona } from '../../src/personas/load.js';
import type { DetectedServer } from '../../src/setup/detect.js';
import type { SetupServices } from '../../src/setup/services.js';
import {
  progress,
  startWizard,
  wizardReducer,
  type Answers,
  type StepId,
  type WizardState,
} from '../../src/setup/wizard.js';
import { useWindowSize } from '../hooks/useWindowSize.js';
import { LangContext } from '../i18n.js';
import { useKeys } from '../keys/useKeys.js';
import { TitleRule } from '../panes/PaneRows.js';
import { wrapText } from '../text/wrap.js';
import { ApiKeyStep } from './ApiKeyStep.js';
import { BaseUrlStep } from './BaseUrlStep.js';
import { ConfirmStep } from './ConfirmStep.js';
import { DownloadStep } from './DownloadStep.js';
import { WizardContext, type WizardApi } from './context.js';
import { quitKey } from './keys.js';
import { KeyRouterContext, type KeyRouter } from './useStepKeys.js';
import { LanguageStep } from './LanguageStep.js';
import { ModelPathStep } from './ModelPathStep.js';
import { ModelStep } from './ModelStep.js';
import { PersonaStep } from './PersonaStep.js';
import { ProviderStep } from './ProviderStep.js';
import { TestStep } from './TestStep.js';

/** How the wizard ended: saved (config.json written), or quit (nothing written). */
export type SetupOutcome = { saved: true; answers: Answers } | { saved: false };

interface SetupWizardProps {
  initial: Answers;
  personas: readonly Persona[];
  /** config.json's path, named in the hints. */
  file: string;
  services: SetupServices;
  /** Fixed sizes (tests); otherwise the terminal's. */
  columns?: number;
  rows?: number;
  /** Called once, when the wizard saved or was quit. */
  onDone(outcome: SetupOutcome): void;
}

const SCREENS: Record<StepId, () => React.JSX.Element> = {
  language: LanguageStep,
  provider: ProviderStep,
  download: DownloadStep,
  baseUrl: BaseUrlStep,
  apiKey: ApiKeyStep,
  model: ModelStep,
  modelPath: ModelPathStep,
  test: TestStep,
  persona: PersonaStep,
  confirm: ConfirmStep,
};

/** Rows the frame takes besides a list: title, intro, question, hint, margins, message, keys. */
const CHROME_ROWS = 13;

/** Looks for local servers at once, while the user reads the first screen. */
function useDetectedServers(services: SetupServices): DetectedServer[] | undefined {
  const [detected, setDetected] = useState<DetectedServer[] | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void services.detect().then(
      (found) => live && setDetected(found),
      () => live && setDetected([]),
    );
    return () => {
      live = false;
    };
  }, [services]);
  return detected;
}

/** Tells `onDone` once, when the wizard is finished or quit. */
function useReportDone(state: WizardState, onDone: SetupWizardProps['onDone']): void {
  const reported = useRef(false);
  useEffect(() => {
    if (state.status === 'editing' || reported.current) return;
    reported.current = true;
    onDone(
      state.status === 'finished' ? { saved: true, answers: state.answers } : { saved: false },
    );
  }, [state.status, state.answers, onDone]);
}

/** The wizard: the current step's screen under a title with the step count. */
export function SetupWizard(p: SetupWizardProps): React.JSX.Element {
  const size = useWindowSize(p.columns, p.rows);
  const [state, dispatch] = useReducer(wizardReducer, p.initial, startWizard);
  const detected = useDetectedServers(p.services);
  useReportDone(state, p.onDone);

  // The one input subscription; the step on screen gets every key but Ctrl+C.
  const router = useRef<KeyRouter>({ current: undefined }).current;
  const quitting = useRef(false);
  useKeys((input, key) => {
    if (quitting.current || state.status !== 'editing') return;
    if (!quitKey(input, key)) return router.current?.(input, key);
    quitting.current = true;
    dispatch({ type: 'quit' });
  });

  const width = Math.max(20, size.columns);
  const step = state.step;
  const api: WizardApi = useMemo(
    () => ({
      answers: state.answers,
      // Each move names the step it answers, so a second key before the next render is
      // ignored instead of answering the following step too.
      next: (patch) => dispatch({ type: 'next', from: step, ...(patch ? { patch } : {}) }),
      back: () => dispatch({ type: 'back', from: step }),
      goto: (to) => dispatch({ type: 'goto', step: to, from: step }),
      services: p.services,
      personas: p.personas,
      detected,
      file: p.file,
      width,
      // One row less than the terminal: Ink redraws the whole screen when a frame fills it.
      listRows: Math.max(3, size.rows - 1 - CHROME_ROWS),
    }),
    [state.answers, step, p.services, p.personas, p.file, detected, width, size.rows],
  );

  const lang = state.answers.language;
  const { n, total } = progress(state);
  const Screen = SCREENS[state.step];
  return (
    <LangContext.Provider value={lang}>
      <WizardContext.Provider value={api}>
        <KeyRouterContext.Provider value={router}>
          <Box flexDirection="column" width={width}>
            <TitleRule
              title={t(lang, 'setup.title')}
              right={
                total === undefined
                  ? t(lang, 'setup.stepOnly', { n })
                  : t(lang, 'setup.step', { n, total })
              }
              width={width}
              focused
            />
            {state.step === 'language' &&
              wrapText(t(lang, 'setup.intro', { file: p.file }), width).map((line, i) => (
                <Text key={i}>{line}</Text>
              ))}
            <Box marginTop={1} flexDirection="column">
              {state.status === 'editing' && <Screen key={state.step} />}
            </Box>
          </Box>
        </KeyRouterContext.Provider>
      </WizardContext.Provider>
    </LangContext.Provider>
  );
}
