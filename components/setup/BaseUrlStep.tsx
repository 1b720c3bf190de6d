import React, { useState } from 'react';
import { t } from '../../src/i18n/messages.js';
import { baseUrlProblem } from '../../src/setup/models.js';
import { useLang } from '../i18n.js';
import { useWizard } from './context.js';
import { StepLayout } from './StepLayout.js';
import { TextField } from './TextField.js';

/** The address of a custom OpenAI-compatible server. */
export function BaseUrlStep(): React.JSX.Element {
  const lang = useLang();
  const w = useWizard();
  const [error, setError] = useState(false);
  return (
    <StepLayout
      title={t(lang, 'setup.baseUrl')}
      hint={t(lang, 'setup.baseUrlHint')}
      hints="field"
      message={error ? { text: t(lang, 'setup.baseUrlInvalid'), tone: 'error' } : undefined}
    >
      <TextField
        initial={w.answers.baseURL}
        width={w.width}
        onChange={() => setError(false)}
        onSubmit={(value) => {
          if (baseUrlProblem(value)) setError(true);
          else w.next({ baseURL: value.trim() });
        }}
        onBack={w.back}
      />
    </StepLayout>
  );
}
