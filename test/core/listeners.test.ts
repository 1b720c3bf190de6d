import { describe, expect, it } from 'vitest';
import { Listeners } from '../../src/core/listeners.js';

describe('Listeners', () => {
  it('calls every listener in the order they subscribed, with the emitted values', () => {
    const heard: string[] = [];
    const listeners = new Listeners<[n: number]>();
    listeners.subscribe((n) => heard.push(`a${n}`));
    listeners.subscribe((n) => heard.push(`b${n}`));
    listeners.emit(1);
    listeners.emit(2);
    expect(heard).toEqual(['a1', 'b1', 'a2', 'b2']);
  });

  it('stops calling a listener once its unsubscribe ran, and counts who is left', () => {
    const heard: string[] = [];
    const listeners = new Listeners();
    const offA = listeners.subscribe(() => heard.push('a'));
    listeners.subscribe(() => heard.push('b'));
    offA();
    offA();
    listeners.emit();
    expect(heard).toEqual(['b']);
    expect(listeners.size).toBe(1);
  });

  it('an emit under way is not changed by a listener that adds or removes another', () => {
    const heard: string[] = [];
    const listeners = new Listeners();
    let offC: () => void = () => {};
    listeners.subscribe(() => {
      heard.push('a');
      offC();
      listeners.subscribe(() => heard.push('late'));
    });
    offC = listeners.subscribe(() => heard.push('c'));
    listeners.emit();
    expect(heard).toEqual(['a', 'c']);
    heard.length = 0;
    listeners.emit();
    expect(heard).toEqual(['a', 'late']);
  });
});

describe('Listeners with onError', () => {
  it('reports a listener that throws with what was emitted, and still calls the others', () => {
    const heard: string[] = [];
    const failed: [unknown, number][] = [];
    const listeners = new Listeners<[n: number]>((err, n) => failed.push([err, n]));
    const broken = new Error('a broken pane');
    listeners.subscribe((n) => heard.push(`a${n}`));
    listeners.subscribe(() => {
      throw broken;
    });
    listeners.subscribe((n) => heard.push(`c${n}`));
    expect(() => listeners.emit(7)).not.toThrow();
    expect(heard).toEqual(['a7', 'c7']);
    expect(failed).toEqual([[broken, 7]]);
  });

  it('without onError, a throw reaches the caller of emit', () => {
    const listeners = new Listeners();
    listeners.subscribe(() => {
      throw new Error('loud');
    });
    expect(() => listeners.emit()).toThrow('loud');
  });
});
