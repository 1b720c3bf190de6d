import { describe, expect, it } from 'vitest';
import { waitUntil } from './waitFor.js';
import { waitFor, waitForFrame } from './waitForFrame.js';

describe('the one polling helper', () => {
  it('resolves with the first value the check returns', async () => {
    let calls = 0;
    const value = await waitUntil(() => (++calls >= 3 ? `after ${calls}` : undefined), 'three');
    expect(value).toBe('after 3');
  });

  it('fails at its deadline naming what it waited for and what it saw', async () => {
    await expect(
      waitUntil(() => false, 'the moon', { timeoutMs: 20, detail: () => 'saw: cheese' }),
    ).rejects.toThrow(/timed out after 20 ms waiting for the moon\nsaw: cheese/);
  });

  it('with intervalMs 0 checks again on every turn of the event loop', async () => {
    let calls = 0;
    await waitUntil(() => ++calls >= 50 || undefined, 'fifty checks', { intervalMs: 0 });
    expect(calls).toBe(50);
  });

  it('is what waitFor and waitForFrame use: same deadline, their own message', async () => {
    await expect(waitFor(() => false, 'nothing', { timeoutMs: 10 })).rejects.toThrow(
      'waiting for nothing',
    );
    await expect(
      waitForFrame(
        () => '\x1b[1mplain\x1b[22m',
        (f) => f.includes('other'),
        { timeoutMs: 10 },
      ),
    ).rejects.toThrow(/Last frame:\nplain$/);
    expect(
      await waitForFrame(
        () => '\x1b[1mok\x1b[22m',
        (f) => f === 'ok',
      ),
    ).toBe('ok');
  });
});
