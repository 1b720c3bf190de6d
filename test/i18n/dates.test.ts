/**
 * Dates in the UI's language: the Chinese screen writes 2026年12月2日, not the system locale's
 * US form (12/2/2026, 9:05 AM); the English one 2 Dec 2026. Through the commands that show
 * dates (/sessions, /remind).
 */
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/commands/runner.js';
import { formatDateTime } from '../../src/i18n/dates.js';
import { fakeCommandContext } from '../helpers/fakeCommandContext.js';

const AT = new Date(2026, 11, 2, 9, 5).getTime();
const signal = new AbortController().signal;

describe('dates in the locale of the UI', () => {
  it('formats a date and time per language, 24-hour', () => {
    expect(formatDateTime(AT, 'zh')).toBe('2026年12月2日 09:05');
    expect(formatDateTime(AT, 'en')).toBe('2 Dec 2026, 09:05');
  });

  it('/sessions in Chinese shows Chinese dates', async () => {
    const ctx = fakeCommandContext({
      lang: 'zh',
      state: {
        sessions: [
          {
            id: 'session-1',
            dir: '/x',
            createdAt: AT,
            updatedAt: AT,
            messageCount: 1,
            firstUserLine: '你好',
            here: true,
            kind: 'interactive',
          },
        ],
      },
    });
    await runCommand('/sessions', ctx, signal);
    expect(ctx.said.join('\n')).toContain('2026年12月2日 09:05');
    expect(ctx.said.join('\n')).not.toMatch(/12\/2\/2026|AM|PM/);
  });

  it('/remind in Chinese answers with a Chinese date', async () => {
    const ctx = fakeCommandContext({ lang: 'zh' });
    await runCommand('/remind 10m 浇花', ctx, signal);
    const at = ctx.calls.find((c) => c.verb === 'remind');
    expect(at).toBeDefined();
    expect(ctx.said.join('\n')).toContain(formatDateTime((at as { at: number }).at, 'zh'));
    expect(ctx.said.join('\n')).toMatch(/\d{4}年\d{1,2}月\d{1,2}日 \d{2}:\d{2}/);
  });
});
