/**
 * The one guard of the end-to-end files that drive a real terminal through tmux. With tmux
 * the tests run. Without it they are skipped with the reason in their name, except under CI:
 * `.ci/run` sets CI and installs tmux, so a missing tmux there is a broken machine, and the
 * file fails saying so instead of passing by skipping.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';

/** What the guard does with a tmux file. */
export type TmuxGuard = 'run' | 'fail' | 'skip';

export function tmuxGuard(hasTmux: boolean, underCI: boolean): TmuxGuard {
  if (hasTmux) return 'run';
  return underCI ? 'fail' : 'skip';
}

/** vitest.config.ts sets CI=false for Ink, and passes the real value on as COGITO_TEST_CI. */
export function underCI(env: NodeJS.ProcessEnv = process.env): boolean {
  return !['', '0', 'false'].includes((env.COGITO_TEST_CI ?? '').toLowerCase());
}

export const MISSING_UNDER_CI =
  'tmux is missing under CI (CI is set): .ci/run installs it (apt-get install tmux)';

/** `describe(title, body)` for a file whose tests need tmux, guarded as above. */
export function describeWithTmux(title: string, body: () => void): void {
  const hasTmux = spawnSync('tmux', ['-V']).status === 0;
  switch (tmuxGuard(hasTmux, underCI())) {
    case 'run':
      describe(title, body);
      return;
    case 'fail':
      test(`${title}: tmux is installed`, () => {
        expect.fail(MISSING_UNDER_CI);
      });
      return;
    case 'skip':
      console.warn(`${title}: skipped, tmux is not installed (apt-get install tmux)`);
      describe.skip(`${title} (skipped: tmux is not installed)`, body);
  }
}
