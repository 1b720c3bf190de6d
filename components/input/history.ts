/**
 * Recall of earlier inputs with ↑/↓, like a shell: the text being typed is kept as a draft
 * and comes back after the newest entry.
 */
export interface InputHistory {
  readonly entries: readonly string[];
  /** Position while recalling: `entries.length` means "the draft". */
  readonly index: number;
  readonly draft: string;
}

const MAX_HISTORY = 200;

export function emptyHistory(): InputHistory {
  return { entries: [], index: 0, draft: '' };
}

/** Records a sent input (not blank, not a repeat of the last one) and resets recall. */
export function remember(h: InputHistory, text: string): InputHistory {
  const skip = text.trim() === '' || h.entries[h.entries.length - 1] === text;
  const entries = skip ? h.entries : [...h.entries, text].slice(-MAX_HISTORY);
  return { entries, index: entries.length, draft: '' };
}

/** ↑: the previous entry, or undefined at the oldest. `current` is saved as the draft. */
export function recallPrev(
  h: InputHistory,
  current: string,
): { history: InputHistory; value: string } | undefined {
  if (h.index <= 0) return undefined;
  const draft = h.index >= h.entries.length ? current : h.draft;
  const index = h.index - 1;
  return { history: { ...h, index, draft }, value: h.entries[index]! };
}

/** ↓: the next entry, the draft after the newest, or undefined when already at the draft. */
export function recallNext(h: InputHistory): { history: InputHistory; value: string } | undefined {
  if (h.index >= h.entries.length) return undefined;
  const index = h.index + 1;
  const value = index >= h.entries.length ? h.draft : h.entries[index]!;
  return { history: { ...h, index }, value };
}
