import { describe, expect, it, vi } from 'vitest';
import { makeMessage } from '../../src/core/messages.js';
import { CurrentSession } from '../../src/history/currentSession.js';
import { useTmpSessionStore } from './tmpDir.js';

describe('CurrentSession: the one holder of the current session', () => {
  const tmp = useTmpSessionStore();

  it('reads and writes the session current at the time of the call', async () => {
    const first = await tmp.store.create();
    const current = new CurrentSession(first);
    current.append(makeMessage('user', 'to the first'));
    const second = await tmp.store.create();
    current.switchTo(second);
    current.append(makeMessage('user', 'to the second'));
    expect(current.id).toBe(second.id);
    expect(current.get()).toBe(second);
    expect(current.messages().map((m) => m.content)).toEqual(['to the second']);
    // The first stays on disk with what it had.
    const reopened = (await tmp.store.list()).find((s) => s.id === first.id);
    expect(reopened?.messageCount).toBe(1);
    current.close();
  });

  it('a switch closes the old session, then tells the listeners in order; the same one is no switch', async () => {
    const first = await tmp.store.create();
    const second = await tmp.store.create();
    const closeFirst = vi.spyOn(first, 'close');
    const current = new CurrentSession(first);
    const heard: string[] = [];
    current.onSwitch((next) => heard.push(`journal ${next.id}`));
    const off = current.onSwitch(() => heard.push('screen'));
    current.onSwitch(() => heard.push(`ledger, first closed: ${closeFirst.mock.calls.length}`));
    current.switchTo(first);
    expect(heard).toEqual([]);
    current.switchTo(second);
    expect(heard).toEqual([`journal ${second.id}`, 'screen', 'ledger, first closed: 1']);
    off();
    current.switchTo(first);
    expect(heard.slice(3)).toEqual([`journal ${first.id}`, 'ledger, first closed: 1']);
    current.close();
  });
});
