import React from 'react';
import { Box, Text, useInput } from 'ink';
import type { ForeignSession } from '../src/app/openWorkspaceSession.js';
import { t, type Lang } from '../src/i18n/messages.js';
import { sanitize } from './text/sanitize.js';

export interface ConfirmSessionProps {
  session: ForeignSession;
  lang: Lang;
  /** `true` for y, `false` for n, Esc or Ctrl+C. */
  onAnswer(yes: boolean): void;
}

/**
 * Asked before the app starts when `--session ID` names a session of another workspace:
 * continuing it here would show the model one folder while its history talks about another.
 */
export function ConfirmSession({
  session,
  lang,
  onAnswer,
}: ConfirmSessionProps): React.JSX.Element {
  useInput((input, key) => {
    const answer = input.toLowerCase();
    if (answer === 'y') onAnswer(true);
    else if (answer === 'n' || key.escape || (key.ctrl && answer === 'c')) onAnswer(false);
  });
  return (
    <Box flexDirection="column" paddingX={1}>
      <Text color="yellow" bold>
        ⚠ {t(lang, 'session.foreignTitle')}
      </Text>
      <Text>
        {t(lang, 'session.foreignBody', {
          id: session.id,
          other: sanitize(session.sessionWorkspace),
          here: sanitize(session.workspace),
        })}
      </Text>
      <Text color="yellow">{t(lang, 'session.foreignAsk')}</Text>
    </Box>
  );
}
