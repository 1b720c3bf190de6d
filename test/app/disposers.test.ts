import { describe, expect, it } from 'vitest';
import { DisposerStack, describeStopFailure, type StopFailure } from '../../src/app/disposers.js';
import { waitUntil } from '../helpers/waitFor.js';

describe('DisposerStack', () => {
  it('stops in reverse order of registration', async () => {
    const stack = new DisposerStack();
    const order: string[] = [];
    for (const name of ['lock', 'session', 'journal', 'agent'])
      stack.defer(name, () => order.push(name));
    expect(await stack.close()).toEqual([]);
    expect(order).toEqual(['agent', 'journal', 'session', 'lock']);
  });

  it('waits for an asynchronous stop before the one registered before it', async () => {
    const stack = new DisposerStack();
    const order: string[] = [];
    stack.defer('lock', () => order.push('lock'));
    stack.defer('mcp', async () => {
      await Promise.resolve();
      await Promise.resolve();
      order.push('mcp');
    });
    await stack.close();
    expect(order).toEqual(['mcp', 'lock']);
  });

  it('a stop that throws or rejects does not skip the others, and each failure is reported', async () => {
    const reported: StopFailure[] = [];
    const stack = new DisposerStack((f) => reported.push(f));
    const order: string[] = [];
    stack.defer('lock', () => order.push('lock'));
    stack.defer('journal', () => {
      throw new Error('disk gone');
    });
    stack.defer('session', () => order.push('session'));
    stack.defer('mcp', () => Promise.reject(new Error('EPIPE')));
    stack.defer('agent', () => order.push('agent'));

    const failures = await stack.close();
    expect(order).toEqual(['agent', 'session', 'lock']);
    expect(failures.map((f) => f.name)).toEqual(['mcp', 'journal']);
    expect(reported).toEqual(failures);
    expect(failures.map(describeStopFailure)).toEqual([
      'could not stop mcp: EPIPE',
      'could not stop journal: disk gone',
    ]);
  });

  it('synchronous stops have all run when close returns (a signal handler relies on it)', () => {
    const stack = new DisposerStack();
    const order: string[] = [];
    stack.defer('terminal', () => order.push('terminal'));
    stack.defer('listeners', () => order.push('listeners'));
    void stack.close();
    expect(order).toEqual(['listeners', 'terminal']);
  });

  it('closing twice stops nothing twice and returns the same result', async () => {
    const stack = new DisposerStack();
    let stops = 0;
    stack.defer('lock', () => {
      stops += 1;
      throw new Error('once');
    });
    const first = stack.close();
    const second = stack.close();
    expect(second).toBe(first);
    expect(await second).toHaveLength(1);
    expect(await stack.close()).toHaveLength(1);
    expect(stops).toBe(1);
    expect(stack.closed).toBe(true);
  });

  it('a resource started after the stack closed is stopped at once, its failure reported', async () => {
    const reported: string[] = [];
    const stack = new DisposerStack((f) => reported.push(f.name));
    await stack.close();
    let stopped = false;
    stack.defer('late app', () => {
      stopped = true;
      throw new Error('late');
    });
    await waitUntil(() => reported.length === 1, 'the late failure');
    expect(stopped).toBe(true);
    expect(reported).toEqual(['late app']);
  });

  it('use registers the stop of the value it returns', async () => {
    const stack = new DisposerStack();
    const released: string[] = [];
    const lock = stack.use('lock', { file: 'cogito.lock' }, (l) => released.push(l.file));
    expect(lock.file).toBe('cogito.lock');
    await stack.close();
    expect(released).toEqual(['cogito.lock']);
  });
});
