/**
 * The setup wizard as data: the steps in order, which of them apply to the answers so far,
 * and a pure reducer over four events. The Ink screens only render a step and dispatch;
 * every "where does Esc go" decision is here and tested without rendering.
 *
 * Nothing is saved by the machine. `finished` means the user confirmed on the last step;
 * the caller has saved by then (the confirm screen saves first, then dispatches `next`).
 */
import type { Lang } from '../i18n/messages.js';
import { presetById, type PresetId, type ProviderPreset } from './presets.js';
import type { VerdictKind } from './verdict.js';

/** Every step, in the order they are asked. Language comes first so the rest reads in it. */
export const STEPS = Object.freeze([
  'language',
  'provider',
  'download',
  'baseUrl',
  'apiKey',
  'model',
  'modelPath',
  'test',
  'persona',
  'confirm',
] as const);

export type StepId = (typeof STEPS)[number];

/** What the user has chosen so far. Strings are '' until answered. */
export interface Answers {
  language: Lang;
  presetId: PresetId | undefined;
  baseURL: string;
  /** '' = no key (local servers, or a custom server that needs none). */
  apiKey: string;
  model: string;
  /** The GGUF file, for the local-file preset (and once the Private download finished). */
  modelPath: string;
  persona: string;
}

export interface WizardState {
  step: StepId;
  answers: Answers;
  status: 'editing' | 'finished' | 'quit';
}

export type WizardEvent =
  /** Accept the current step (with what it answered) and move to the next that applies. */
  | { type: 'next'; patch?: Partial<Answers>; from?: StepId }
  /** Esc: the previous step that applies (a no-op on the first step). */
  | { type: 'back'; from?: StepId }
  /** Jump back to an earlier step (a failed test sends the user to what needs fixing). */
  | { type: 'goto'; step: StepId; from?: StepId }
  | { type: 'quit' };

function presetOf(a: Answers): ProviderPreset | undefined {
  return a.presetId === undefined ? undefined : presetById(a.presetId);
}

/** A model file run inside Cogito: picked by path, or downloaded by the Private choice. */
function runsInProcess(a: Answers): boolean {
  const kind = presetOf(a)?.kind;
  return kind === 'gguf' || kind === 'download';
}

/** When each step is asked. Frozen: the table is the whole policy. */
const APPLIES: Readonly<Record<StepId, (a: Answers) => boolean>> = Object.freeze({
  language: () => true,
  provider: () => true,
  download: (a) => presetOf(a)?.kind === 'download',
  baseUrl: (a) => presetOf(a)?.kind === 'custom',
  apiKey: (a) => (presetOf(a)?.key ?? 'none') !== 'none',
  model: (a) => !runsInProcess(a),
  modelPath: (a) => presetOf(a)?.kind === 'gguf',
  test: () => true,
  persona: () => true,
  confirm: () => true,
});

/** The steps that apply to these answers, in order. */
export function stepsFor(a: Answers): StepId[] {
  return STEPS.filter((s) => APPLIES[s](a));
}

/** A fresh wizard on its first step. */
export function startWizard(answers: Answers): WizardState {
  return { step: STEPS[0], answers, status: 'editing' };
}

/**
 * Choosing a different provider forgets what belonged to the old one: its address, key
 * and model. A key typed for DeepSeek must never be sent to a custom server.
 */
function applyPatch(a: Answers, patch: Partial<Answers>): Answers {
  const changed = patch.presetId !== undefined && patch.presetId !== a.presetId;
  const reset: Partial<Answers> = changed
    ? { baseURL: presetById(patch.presetId!).baseURL, apiKey: '', model: '', modelPath: '' }
    : {};
  return { ...a, ...reset, ...patch };
}

/**
 * The next state. An event the current state cannot take throws: it is a UI bug. An event
 * that names the step it came from (`from`) and arrives after the wizard moved on (two
 * Enters faster than a render) is stale, and ignored: it must not answer the next step.
 */
export function wizardReducer(state: WizardState, event: WizardEvent): WizardState {
  const stale = 'from' in event && event.from !== undefined && event.from !== state.step;
  if (stale || ('from' in event && event.from !== undefined && state.status !== 'editing'))
    return state;
  if (state.status !== 'editing')
    throw new Error(`setup wizard: "${event.type}" after the wizard ${state.status}`);
  switch (event.type) {
    case 'quit':
      return { ...state, status: 'quit' };
    case 'next': {
      const answers = applyPatch(state.answers, event.patch ?? {});
      const steps = stepsFor(answers);
      const i = steps.indexOf(state.step);
      const next = steps[i + 1];
      return next === undefined
        ? { ...state, answers, status: 'finished' }
        : { ...state, answers, step: next };
    }
    case 'back': {
      const steps = stepsFor(state.answers);
      const i = steps.indexOf(state.step);
      return i <= 0 ? state : { ...state, step: steps[i - 1]! };
    }
    case 'goto': {
      const steps = stepsFor(state.answers);
      const to = steps.indexOf(event.step);
      if (to === -1 || to > steps.indexOf(state.step))
        throw new Error(`setup wizard: cannot go to "${event.step}" from "${state.step}"`);
      return { ...state, step: event.step };
    }
  }
}

/**
 * "Step n of total" for the current answers. The total depends on the provider (a key, an
 * address, a model file…), so it is given only once the provider is chosen: a count shown
 * before would change under the user's eyes as they move on.
 */
export function progress(state: WizardState): { n: number; total: number | undefined } {
  const steps = stepsFor(state.answers);
  const n = steps.indexOf(state.step) + 1;
  const chosen = n > steps.indexOf('provider') + 1;
  return { n, total: chosen ? steps.length : undefined };
}

/**
 * Where a failed test sends the user: the step that holds what needs fixing, or, when that
 * step is not asked for these answers, the one just before the test.
 */
export function stepToFix(kind: VerdictKind, a: Answers): StepId {
  const steps = stepsFor(a);
  const wanted: Record<VerdictKind, StepId[]> = {
    bad_key: ['apiKey', 'provider'],
    unreachable: ['baseUrl', 'provider'],
    unknown_model: ['model'],
    bad_file: ['modelPath', 'download'],
    other: [],
  };
  const found = wanted[kind].find((s) => steps.includes(s));
  return found ?? steps[steps.indexOf('test') - 1] ?? 'provider';
}
