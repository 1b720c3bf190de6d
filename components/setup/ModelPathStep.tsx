import React, { useState } from 'react';
import { t } from '../../src/i18n/messages.js';
import { useLang } from '../i18n.js';
import { useWizard } from './context.js';
import { StepLayout } from './StepLayout.js';
import { TextField } from './TextField.js';

/** The GGUF file for the local preset; the test step loads it. */
export function ModelPathStep(): React.JSX.Element {
  const lang = useLang();
  const w = useWizard();
  const [error, setError] = useState(false);
  return (
    <StepLayout
      title={t(lang, 'setup.modelPath')}
      hint={t(lang, 'setup.modelPathHint')}
      hints="field"
      message={error ? { text: t(lang, 'setup.modelPathEmpty'), tone: 'error' } : undefined}
    >
      <TextField
        initial={w.answers.modelPath}
        width={w.width}
        onChange={() => setError(false)}
        onSubmit={(value) => {
          if (value.trim() === '') setError(true);
          else w.next({ modelPath: value.trim() });
        }}
        onBack={w.back}
      />
    </StepLayout>
  );
}
