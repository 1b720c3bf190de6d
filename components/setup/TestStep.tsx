import React, { useEffect, useState } from 'react';
import { Box, Text } from 'ink';
import { t } from '../../src/i18n/messages.js';
import type { ConnectionVerdict } from '../../src/setup/verdict.js';
import { stepToFix } from '../../src/setup/wizard.js';
import { useSpinner } from '../hooks/useSpinner.js';
import { useLang } from '../i18n.js';
import { useStepKeys } from './useStepKeys.js';
import { wrapText } from '../text/wrap.js';
import { useWizard } from './context.js';
import { resolveListKey } from './keys.js';
import { StepLayout } from './StepLayout.js';

/**
 * The connection test, run on arrival. A pass continues with Enter; a failure says what
 * went wrong in plain words, and Esc goes straight to the step that fixes it.
 */
export function TestStep(): React.JSX.Element {
  const lang = useLang();
  const w = useWizard();
  const [attempt, setAttempt] = useState(0);
  const [verdict, setVerdict] = useState<ConnectionVerdict | undefined>(undefined);
  const spinner = useSpinner(verdict === undefined);
  const file = w.answers.presetId === 'gguf' || w.answers.presetId === 'private';

  const { services, answers } = w;
  useEffect(() => {
    let live = true;
    setVerdict(undefined);
    void services.verify(answers).then((v) => {
      if (live) setVerdict(v);
    });
    return () => {
      live = false;
    };
    // Runs again on "try again" (the answers cannot change while this step is shown).
  }, [attempt, services, answers]);

  useStepKeys((input, key) => {
    const action = resolveListKey(input, key);
    if (action === 'back') {
      if (verdict && !verdict.ok) w.goto(stepToFix(verdict.kind, w.answers));
      else w.back();
    } else if (action === 'submit' && verdict) {
      if (verdict.ok) w.next();
      else setAttempt((n) => n + 1);
    }
  });

  const title = t(lang, 'setup.test');
  if (verdict === undefined) {
    return (
      <StepLayout title={title} hints="wait">
        <Text
          dimColor
        >{`${spinner} ${t(lang, file ? 'setup.checkingFile' : 'setup.checking')}`}</Text>
      </StepLayout>
    );
  }
  if (verdict.ok) {
    const text = verdict.note
      ? t(lang, 'setup.checkOkFile', { note: verdict.note })
      : t(lang, 'setup.checkOk');
    return (
      <StepLayout title={title} hints="continue">
        <Text color="green">{`✓ ${text}`}</Text>
      </StepLayout>
    );
  }
  return (
    <StepLayout
      title={title}
      hints="retry"
      message={{ text: t(lang, `setup.fix.${verdict.kind}`), tone: 'warn' }}
    >
      <Text color="red" bold>{`✗ ${t(lang, `setup.verdict.${verdict.kind}`)}`}</Text>
      <Box flexDirection="column">
        {wrapText(verdict.message, w.width - 2).map((line, i) => (
          <Text key={i} dimColor>{`  ${line}`}</Text>
        ))}
      </Box>
    </StepLayout>
  );
}
