/**
 * Drains a provider stream and checks the provider contract on the way: it must not throw,
 * and it must end with exactly one `done`, as the last event.
 */
import { expect } from 'vitest';
import type { ProviderEvent } from '../../src/providers/types.js';

export type DoneEvent = Extract<ProviderEvent, { type: 'done' }>;

export interface Collected {
  events: ProviderEvent[];
  /** All `text_delta` texts joined. */
  text: string;
  /** All `reasoning_delta` texts joined. */
  reasoning: string;
  done: DoneEvent;
}

/** Runs `stream` to its end and returns what it yielded (fails the test on a contract breach). */
export async function collectEvents(stream: AsyncIterable<ProviderEvent>): Promise<Collected> {
  const events: ProviderEvent[] = [];
  for await (const event of stream) events.push(event);
  const dones = events.filter((e): e is DoneEvent => e.type === 'done');
  expect(dones, 'a provider stream ends with exactly one done').toHaveLength(1);
  expect(events.at(-1)?.type, 'done is the last event').toBe('done');
  const join = (type: 'text_delta' | 'reasoning_delta'): string =>
    events.map((e) => (e.type === type ? e.text : '')).join('');
  return {
    events,
    text: join('text_delta'),
    reasoning: join('reasoning_delta'),
    done: dones[0] as DoneEvent,
  };
}
