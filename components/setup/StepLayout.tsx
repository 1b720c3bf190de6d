import React from 'react';
import { Box, Text } from 'ink';
import { plainText, useLang } from '../i18n.js';
import { wrapText } from '../text/wrap.js';
import { useWizard } from './context.js';
import { HINTS, type HintSet } from './keys.js';

interface StepLayoutProps {
  /** The question, already translated. */
  title: string;
  /** One dim line under the question. */
  hint?: string | undefined;
  /** A problem with the answer (red), or a note (yellow). */
  message?: { text: string; tone: 'error' | 'warn' | 'ok' } | undefined;
  hints: HintSet;
  children?: React.ReactNode;
}

const TONE_COLOR = { error: 'red', warn: 'yellow', ok: 'green' } as const;

/** One step's frame: the question, its hint, the widget, a message, and the keys. */
export function StepLayout(p: StepLayoutProps): React.JSX.Element {
  const lang = useLang();
  const { width } = useWizard();
  const keys = HINTS[p.hints].map((h) => `${h.keys} ${plainText(lang, h.label)}`).join(' · ');
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>{p.title}</Text>
      {p.hint !== undefined &&
        wrapText(p.hint, width).map((line, i) => (
          <Text key={i} dimColor>
            {line}
          </Text>
        ))}
      <Box flexDirection="column" marginTop={1}>
        {p.children}
      </Box>
      {p.message !== undefined && (
        <Box flexDirection="column" marginTop={1}>
          {wrapText(p.message.text, width).map((line, i) => (
            <Text key={i} color={TONE_COLOR[p.message!.tone]}>
              {line}
            </Text>
          ))}
        </Box>
      )}
      <Box marginTop={1}>
        <Text dimColor wrap="truncate-end">
          {keys}
        </Text>
      </Box>
    </Box>
  );
}
