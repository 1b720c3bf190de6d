import React, { useRef, useState } from 'react';
import { DEFAULT_DAILY_BUDGET } from '../../src/config/schema.js';
import { Box, Text } from 'ink';
import { t, type Lang, type MessageKey } from '../../src/i18n/messages.js';
import { presetById } from '../../src/setup/presets.js';
import { stepsFor, type Answers } from '../../src/setup/wizard.js';
import type { Persona } from '../../src/personas/load.js';
import { plainText, useLang } from '../i18n.js';
import { useStepKeys } from './useStepKeys.js';
import { displayWidth, padTo, truncate } from '../text/wrap.js';
import { useWizard } from './context.js';
import { resolveListKey } from './keys.js';
import { StepLayout } from './StepLayout.js';

/** The summary rows: label key and shown value. The key itself never appears, only set/none. */
function summaryRows(a: Answers, lang: Lang, personas: readonly Persona[]): [MessageKey, string][] {
  const steps = stepsFor(a);
  const persona = personas.find((p) => p.id === a.persona);
  const rows: [MessageKey, string][] = [
    ['setup.summary.language', t(lang, a.language === 'zh' ? 'setup.lang.zh' : 'setup.lang.en')],
    ['setup.summary.provider', a.presetId ? presetById(a.presetId).label[lang] : ''],
  ];
  if (steps.includes('model')) rows.push(['setup.summary.baseUrl', a.baseURL]);
  if (steps.includes('apiKey'))
    rows.push(['setup.summary.apiKey', t(lang, a.apiKey ? 'setup.keySet' : 'setup.keyNone')]);
  if (steps.includes('model')) rows.push(['setup.summary.model', a.model]);
  if (steps.includes('modelPath') || steps.includes('download'))
    rows.push(['setup.summary.modelPath', a.modelPath]);
  rows.push([
    'setup.summary.persona',
    persona ? (lang === 'zh' ? persona.nameZh : persona.name) : a.persona,
  ]);
  return rows;
}

/** Everything chosen, and the one write: Enter saves config.json, then the app starts. */
export function ConfirmStep(): React.JSX.Element {
  const lang = useLang();
  const w = useWizard();
  const [state, setState] = useState<{ saving: boolean; error?: string }>({ saving: false });
  // Set at once (not on the next render), so a second Enter cannot start a second write.
  const inFlight = useRef(false);

  useStepKeys((input, key) => {
    if (inFlight.current) return;
    const action = resolveListKey(input, key);
    if (action === 'back') w.back();
    if (action !== 'submit') return;
    inFlight.current = true;
    setState({ saving: true });
    void w.services.save(w.answers).then((r) => {
      inFlight.current = false;
      if (r.ok) return w.next();
      const message = r.errors.map((e) => `${e.field}: ${e.problem}. ${e.fix}`).join(' ');
      setState({ saving: false, error: message });
    });
  });

  const rows = summaryRows(w.answers, lang, w.personas);
  const labelWidth = Math.max(...rows.map(([k]) => displayWidth(plainText(lang, k)))) + 2;
  const message = state.saving
    ? { text: t(lang, 'setup.saving'), tone: 'ok' as const }
    : state.error !== undefined
      ? { text: t(lang, 'setup.saveFailed', { message: state.error }), tone: 'error' as const }
      : undefined;
  return (
    <StepLayout
      title={t(lang, 'setup.confirm')}
      hint={t(lang, 'setup.confirmHint', { file: w.file })}
      hints="save"
      message={message}
    >
      <Box flexDirection="column">
        {rows.map(([label, value]) => (
          <Text key={label} wrap="truncate-end">
            <Text dimColor>{padTo(plainText(lang, label), labelWidth)}</Text>
            {truncate(value, Math.max(1, w.width - labelWidth))}
          </Text>
        ))}
        {/* What a forgotten session can spend: the default daily budget, before saving. */}
        <Text dimColor wrap="wrap">
          {t(lang, 'setup.budgetDay', { limit: DEFAULT_DAILY_BUDGET.toLocaleString('en-US') })}
        </Text>
      </Box>
    </StepLayout>
  );
}
