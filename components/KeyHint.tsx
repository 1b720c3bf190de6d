import React from 'react';
import { Text } from 'ink';
import { plainText, useLang } from './i18n.js';
import type { KeyContext } from './keys/bindings.js';
import { hintsFor } from './keys/hints.js';
import { truncate } from './text/wrap.js';

export interface KeyHintProps {
  context: KeyContext;
  width: number;
  /** Tab-completion candidates, shown instead of the hints until the next edit. */
  completions: readonly string[];
}

/** One line of the keys that do something right now, e.g. `Enter send · Ctrl+P pause`. */
export function KeyHint({ context, width, completions }: KeyHintProps): React.JSX.Element {
  const lang = useLang();
  if (completions.length > 0) {
    return (
      <Text wrap="truncate-end" color="magenta">
        {truncate(completions.join('  '), width)}
      </Text>
    );
  }
  const parts = hintsFor(context).map(({ keys, label }) => {
    const shown = label === 'hint.pause' && context.machine === 'PAUSED' ? 'hint.resume' : label;
    return `${keys} ${plainText(lang, shown)}`;
  });
  return (
    <Text wrap="truncate-end" dimColor>
      {truncate(parts.join(' · '), width)}
    </Text>
  );
}
