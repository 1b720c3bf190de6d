import { describe, expect, it } from 'vitest';
import { tmuxGuard, underCI } from './tmuxGuard.js';

describe('the tmux guard of the end-to-end files', () => {
  it('runs with tmux, fails without it under CI, and skips without it elsewhere', () => {
    expect(tmuxGuard(true, true)).toBe('run');
    expect(tmuxGuard(true, false)).toBe('run');
    expect(tmuxGuard(false, true)).toBe('fail');
    expect(tmuxGuard(false, false)).toBe('skip');
  });

  it('reads CI from COGITO_TEST_CI (vitest sets CI itself to false for Ink)', () => {
    expect(underCI({ COGITO_TEST_CI: 'true' })).toBe(true);
    expect(underCI({ COGITO_TEST_CI: '1' })).toBe(true);
    expect(underCI({ COGITO_TEST_CI: 'FALSE' })).toBe(false);
    expect(underCI({ COGITO_TEST_CI: '' })).toBe(false);
    expect(underCI({ CI: 'true' })).toBe(false);
  });
});
