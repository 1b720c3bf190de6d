import React from 'react';
import { Text } from 'ink';
import { plainText, useLang } from './i18n.js';
import type { KeyContext } from './keys/bindings.js';
import { hintsFor } from './keys/hints.js';
import { displayWidth, truncate } from './text/wrap.js';

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
    return { text: `${keys} ${plainText(lang, shown)}`, keep: label === 'hint.quit' };
  });
  return (
    <Text wrap="truncate-end" dimColor>
      {fitHints(parts, width)}
    </Text>
  );
}

const SEPARATOR = ' · ';

/**
 * The hints that fit in `width`, each whole: how to quit always stays, the others are kept in
 * their order while they fit and left out when they do not (never cut in the middle, which
 * would hide how to quit behind a "…" on a narrow terminal).
 */
export function fitHints(parts: readonly { text: string; keep: boolean }[], width: number): string {
  const all = parts.map((p) => p.text).join(SEPARATOR);
  if (displayWidth(all) <= width) return all;
  let used = parts
    .filter((p) => p.keep)
    .reduce((w, p) => w + displayWidth(p.text) + SEPARATOR.length, -SEPARATOR.length);
  const shown = parts.filter((p) => {
    if (p.keep) return true;
    const w = displayWidth(p.text) + SEPARATOR.length;
    if (used + w > width) return false;
    used += w;
    return true;
  });
  return truncate(shown.map((p) => p.text).join(SEPARATOR), width);
}
