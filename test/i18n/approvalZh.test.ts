/**
 * The Chinese UI asks for approval in Chinese: the policy's reason on the approval prompt is
 * written in the user's language, not English. The real agent against the scripted server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ok, type Tool } from '../../src/tools/types.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { waitForStore } from '../helpers/waitFor.js';

const ping: Tool = {
  name: 'ping',
  description: 'answers pong',
  kind: 'process',
  params: [],
  run: async () => ok('pong'),
};

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe('approval reasons in the UI language', () => {
  for (const [lang, expected] of [
    ['zh', 'process 类工具运行前需要确认'],
    ['en', 'process tools ask before they run'],
  ] as const) {
    it(`${lang}: the kind's policy reason`, async () => {
      h = await createHarness({ settings: { lang }, extraTools: [ping] });
      h.server.push({ kind: 'stream', content: '[TOOL] ping() [/TOOL]' });
      h.agent.start();
      h.agent.send({ type: 'submit', text: 'go' });
      const s = await waitForStore(h.agent.store, (st) => st.approval !== undefined, 'the prompt');
      expect(s.approval!.reason).toBe(expected);
      h.agent.send({ type: 'answer_approval', answer: 'no' });
    });
  }
});
