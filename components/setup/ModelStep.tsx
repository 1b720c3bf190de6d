import React, { useEffect, useState } from 'react';
import { Text } from 'ink';
import { t } from '../../src/i18n/messages.js';
import { presetById } from '../../src/setup/presets.js';
import type { Answers } from '../../src/setup/wizard.js';
import { useSpinner } from '../hooks/useSpinner.js';
import { useLang } from '../i18n.js';
import { useStepKeys } from './useStepKeys.js';
import { useWizard, type WizardApi } from './context.js';
import { resolveListKey } from './keys.js';
import { SelectList, type SelectItem } from './SelectList.js';
import { StepLayout } from './StepLayout.js';
import { TextField } from './TextField.js';

type Phase =
  | { kind: 'loading' }
  | { kind: 'list'; models: string[] }
  /** `models`: the list the user left to type a name; `note`: why there is no list. */
  | { kind: 'typed'; models?: string[]; note?: string };

/** The server's model list, asked for once per visit; then what the user chose to do. */
function useModelList(
  services: WizardApi['services'],
  baseURL: Answers['baseURL'],
  apiKey: Answers['apiKey'],
): [Phase, (next: Phase) => void] {
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  useEffect(() => {
    let live = true;
    void services.listModels(baseURL, apiKey).then((r) => {
      if (!live) return;
      if (r.ok && r.models.length > 0) setPhase({ kind: 'list', models: r.models });
      else setPhase({ kind: 'typed', note: r.ok ? 'the list is empty' : r.message });
    });
    return () => {
      live = false;
    };
    // Asked once per visit: the address and key cannot change while this step is shown.
  }, [services, baseURL, apiKey]);
  return [phase, setPhase];
}

/** The model: picked from the server's list when it answers, typed otherwise. */
export function ModelStep(): React.JSX.Element {
  const lang = useLang();
  const w = useWizard();
  const { baseURL, apiKey, model, presetId } = w.answers;
  const [phase, setPhase] = useModelList(w.services, baseURL, apiKey);
  const [empty, setEmpty] = useState(false);
  const spinner = useSpinner(phase.kind === 'loading');

  useStepKeys((input, key) => {
    if (resolveListKey(input, key) === 'back') w.back();
  }, phase.kind === 'loading');

  const title = t(lang, 'setup.model');
  if (phase.kind === 'loading') {
    return (
      <StepLayout title={title} hints="wait">
        <Text dimColor>{`${spinner} ${t(lang, 'setup.modelsLoading')}`}</Text>
      </StepLayout>
    );
  }

  const suggested = presetId ? presetById(presetId).models : [];
  if (phase.kind === 'list') {
    const items: SelectItem<string | undefined>[] = [
      ...phase.models.map((m) => ({ key: `m:${m}`, label: m, value: m })),
      { key: 'other', label: t(lang, 'setup.modelOther'), value: undefined },
    ];
    const start = [model, ...suggested].find((m) => m && phase.models.includes(m));
    return (
      <StepLayout title={title} hint={t(lang, 'setup.modelsPick')} hints="list">
        <SelectList
          items={items}
          initialKey={start ? `m:${start}` : undefined}
          width={w.width}
          rows={w.listRows}
          onSubmit={(item) =>
            item.value === undefined
              ? setPhase({ kind: 'typed', models: phase.models })
              : w.next({ model: item.value })
          }
          onBack={w.back}
        />
      </StepLayout>
    );
  }

  const message = empty
    ? { text: t(lang, 'setup.modelEmpty'), tone: 'error' as const }
    : phase.note !== undefined
      ? { text: t(lang, 'setup.modelsUnavailable', { message: phase.note }), tone: 'warn' as const }
      : undefined;
  return (
    <StepLayout title={title} hint={t(lang, 'setup.modelHint')} hints="field" message={message}>
      <TextField
        initial={model || suggested[0] || ''}
        width={w.width}
        onChange={() => setEmpty(false)}
        onSubmit={(value) => {
          if (value.trim() === '') setEmpty(true);
          else w.next({ model: value.trim() });
        }}
        // From a typed name, Esc returns to the list it came from, if there was one.
        onBack={() => (phase.models ? setPhase({ kind: 'list', models: phase.models }) : w.back())}
      />
    </StepLayout>
  );
}
