/**
 * The compactor's port to the agent, tested bare: a fake compactor and a fake port, no agent.
 * What the hook does for each outcome is what it calls on the port and what it returns.
 */
import { describe, expect, it } from 'vitest';
import { t } from '../../src/i18n/messages.js';
import type { CompactionOutcome } from '../../src/memory/compactor.js';
import {
  createCompactHook,
  type CompactedHistory,
  type CompactDeps,
} from '../../src/agent/compactHook.js';

const history: CompactedHistory = {
  messages: () => [],
  append: () => ({ ok: true }),
  archive: () => ({ ok: true }),
  compact: () => ({ ok: true }),
};

function setup(outcome: CompactionOutcome, lang: 'en' | 'zh' = 'en') {
  const seen: string[] = [];
  const forced: boolean[] = [];
  const port: CompactDeps = {
    history: () => history,
    replaceHistory: (h) => void seen.push(h === history ? 'replaced' : 'replaced another'),
    notice: (text, level = 'info') => void seen.push(`${level}: ${text}`),
    lang: () => lang,
  };
  const hook = createCompactHook(
    {
      run: async (h, _signal, force) => {
        expect(h).toBe(history);
        forced.push(force === true);
        return outcome;
      },
    },
    port,
  );
  return { hook, seen, forced };
}

const signal = new AbortController().signal;

describe('the compact hook', () => {
  it('after a compression: shows the new history, then says what it did', async () => {
    const { hook, seen, forced } = setup({
      kind: 'done',
      summarised: 12,
      kept: 4,
      tokensBefore: 9000,
      tokensAfter: 2000,
    });
    expect(await hook(signal, false)).toBeUndefined();
    expect(forced).toEqual([false]);
    expect(seen).toEqual([
      'replaced',
      `info: ${t('en', 'compact.done', { count: 12, before: 9000, after: 2000 })}`,
    ]);
  });

  it('a failed summary is a warning; the history is not replaced', async () => {
    const { hook, seen } = setup({ kind: 'failed', reason: 'server said 500' }, 'zh');
    expect(await hook(signal, true)).toBeUndefined();
    expect(seen).toEqual([`warn: ${t('zh', 'compact.failed', { reason: 'server said 500' })}`]);
  });

  it('nothing to do: silent in COMPACT, an answer (returned, not said) for /compact', async () => {
    const quiet = setup({ kind: 'skipped', reason: 'small' });
    expect(await quiet.hook(signal, false)).toBeUndefined();
    expect(quiet.seen).toEqual([]);
    const asked = setup({ kind: 'skipped', reason: 'small' });
    expect(await asked.hook(signal, true)).toBe(t('en', 'cmd.nothingToCompact'));
    expect(asked.seen).toEqual([]);
    expect(asked.forced).toEqual([true]);
  });
});
