import { defineConfig } from 'vitest/config';

/**
 * Two groups. Most files run in parallel. The few that assert a latency bound from the
 * product's acceptance list (an interrupt closes the connection within 50 ms) and the
 * end-to-end terminal test run afterwards, one file at a time, so that the rest of the
 * suite competing for two cores does not decide their outcome.
 */
const SERIAL = ['test/**/*.timing.test.{ts,tsx}', 'test/e2e/**/*.test.{ts,tsx}'];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Ink renders only the last frame when it believes it runs in CI (it reads CI at import
    // time); the screen tests need the frames a terminal user sees, CI or not. The real
    // value goes on as COGITO_TEST_CI, for tests that must fail rather than skip under CI.
    env: { CI: 'false', CONTINUOUS_INTEGRATION: 'false', COGITO_TEST_CI: process.env.CI ?? '' },
    projects: [
      {
        extends: true,
        test: {
          name: 'parallel',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: SERIAL,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'serial',
          include: SERIAL,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
