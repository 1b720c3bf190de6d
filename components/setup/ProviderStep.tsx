import React from 'react';
import { Text } from 'ink';
import { t, type Lang, type MessageKey } from '../../src/i18n/messages.js';
import type { DetectedServer } from '../../src/setup/detect.js';
import { PRESETS, presetById, type ProviderPreset } from '../../src/setup/presets.js';
import type { Answers } from '../../src/setup/wizard.js';
import { useSpinner } from '../hooks/useSpinner.js';
import { plainText, useLang } from '../i18n.js';
import { useStepKeys } from './useStepKeys.js';
import { useWizard } from './context.js';
import { resolveListKey } from './keys.js';
import { SelectList, type SelectItem } from './SelectList.js';
import { StepLayout } from './StepLayout.js';

const KIND_HINT: Record<ProviderPreset['kind'], MessageKey> = {
  remote: 'setup.presetRemote',
  'local-server': 'setup.presetLocalServer',
  custom: 'setup.presetCustom',
  gguf: 'setup.presetGguf',
  download: 'setup.presetDownload',
};

type Choice = Pick<Answers, 'presetId' | 'baseURL'>;

/** Servers running here first (they work without a key), then every preset. */
function providerItems(
  detected: readonly DetectedServer[],
  answers: Answers,
  lang: Lang,
): SelectItem<Choice>[] {
  const found = detected.map((s) => ({
    key: `found:${s.presetId}`,
    label: presetById(s.presetId).label[lang],
    detail: t(lang, 'setup.detected', { url: s.baseURL, count: s.models.length }),
    value: { presetId: s.presetId, baseURL: s.baseURL },
  }));
  const rest = PRESETS.filter((p) => !detected.some((s) => s.presetId === p.id)).map((p) => ({
    key: p.id,
    label: p.label[lang],
    detail: plainText(lang, KIND_HINT[p.kind]),
    // Choosing the same preset again keeps the address already typed for it.
    value: {
      presetId: p.id,
      baseURL: p.id === answers.presetId && answers.baseURL ? answers.baseURL : p.baseURL,
    },
  }));
  return [...found, ...rest];
}

/** Which service runs the model. Waits (briefly) for local detection to finish. */
export function ProviderStep(): React.JSX.Element {
  const lang = useLang();
  const w = useWizard();
  const spinner = useSpinner(w.detected === undefined);
  useStepKeys((input, key) => {
    if (resolveListKey(input, key) === 'back') w.back();
  }, w.detected === undefined);

  if (w.detected === undefined) {
    return (
      <StepLayout title={t(lang, 'setup.provider')} hints="wait">
        <Text dimColor>{`${spinner} ${t(lang, 'setup.detecting')}`}</Text>
      </StepLayout>
    );
  }
  const items = providerItems(w.detected, w.answers, lang);
  const current = w.detected.some((s) => s.presetId === w.answers.presetId)
    ? `found:${w.answers.presetId}`
    : w.answers.presetId;
  return (
    <StepLayout title={t(lang, 'setup.provider')} hints="list">
      <SelectList
        items={items}
        initialKey={current}
        width={w.width}
        rows={w.listRows}
        onSubmit={(item) => w.next(item.value)}
        onBack={w.back}
      />
    </StepLayout>
  );
}
