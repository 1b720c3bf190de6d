import React, { useState } from 'react';
import { t } from '../../src/i18n/messages.js';
import { presetById } from '../../src/setup/presets.js';
import { useLang } from '../i18n.js';
import { useWizard } from './context.js';
import { StepLayout } from './StepLayout.js';
import { TextField } from './TextField.js';

/** The API key: masked while typed, never shown afterwards. */
export function ApiKeyStep(): React.JSX.Element {
  const lang = useLang();
  const w = useWizard();
  const [error, setError] = useState(false);
  const required = w.answers.presetId && presetById(w.answers.presetId).key === 'required';
  return (
    <StepLayout
      title={t(lang, 'setup.apiKey')}
      hint={t(lang, required ? 'setup.apiKeyHintRequired' : 'setup.apiKeyHint', { file: w.file })}
      hints="field"
      message={error ? { text: t(lang, 'setup.apiKeyEmpty'), tone: 'error' } : undefined}
    >
      <TextField
        initial={w.answers.apiKey}
        mask
        width={w.width}
        onChange={() => setError(false)}
        onSubmit={(value) => {
          const key = value.trim();
          if (required && key === '') setError(true);
          else w.next({ apiKey: key });
        }}
        onBack={w.back}
      />
    </StepLayout>
  );
}
