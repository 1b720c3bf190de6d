/**
 * A short, realistic session fed to a fake controller: what the README's screen capture
 * shows. Times are fixed so the merge order of notices and messages is stable.
 */
import { makeMessage } from '../../src/core/messages.js';
import { createFakeController, toolEntry, type FakeController } from './fakeController.js';
import { replyMessage } from './replyParts.js';

export function scriptedConversation(): FakeController {
  const c = createFakeController({
    machine: 'AWAITING_INPUT',
    model: 'deepseek-chat',
    persona: 'explorer',
    cycle: 2,
    contextTokens: 3840,
    sessionTokens: 12_960,
  });
  const t0 = Date.now() - 60_000;
  c.emit({
    type: 'message_added',
    message: makeMessage('user', 'What is in my notes folder? Anything about the trip to Kyoto?', {
      at: t0,
    }),
  });
  c.emit({
    type: 'message_added',
    message: replyMessage(
      'Let me look around first.\n[TOOL] ls(".") [/TOOL]\n[TOOL] grep("Kyoto", ".") [/TOOL]',
      {
        at: t0 + 1000,
        reasoning:
          'The user wants an overview and anything about Kyoto. List the folder, then search for the word.',
      },
    ),
  });
  c.emit({
    type: 'message_added',
    message: makeMessage('tool', 'ls(".") → 14 entries\ngrep(...) → 3 matches', { at: t0 + 2000 }),
  });
  c.emit({
    type: 'message_added',
    message: replyMessage(
      [
        'You have 14 notes. Three of them mention Kyoto:',
        '- kyoto-2024.md: the itinerary (5 days, the ryokan is booked)',
        '- budget.md: ¥180,000 set aside for the trip',
        '- 旅行清单.md: a packing list, in Chinese',
        'Shall I merge them into one trip plan?',
        '[WAIT]',
      ].join('\n'),
      {
        at: t0 + 3000,
        reasoning:
          'Three files match. The itinerary and the budget overlap; the packing list is separate. A merged plan would help, but that writes a file, so ask first.',
      },
    ),
  });
  // The agent's own cycle count and token use, as the status bar shows them.
  c.emit({ type: 'turn_start', turnId: 3, trigger: 'timer', cycle: 2 });
  c.emit({
    type: 'turn_end',
    turnId: 3,
    outcome: 'ok',
    wait: true,
    trace: {
      turnId: 3,
      trigger: 'timer',
      startedAt: t0,
      durationMs: 900,
      phases: [],
      steps: 1,
      outcome: 'ok',
    },
  });
  c.emit({
    type: 'tool_end',
    entry: toolEntry({
      callId: 'c1',
      name: 'ls',
      call: 'ls(".")',
      summary: '14 entries',
      durationMs: 8,
    }),
  });
  c.emit({
    type: 'tool_end',
    entry: toolEntry({
      callId: 'c2',
      name: 'grep',
      call: 'grep("Kyoto", ".")',
      args: ['Kyoto', '.'],
      summary: '3 matches in 3 files',
      durationMs: 41,
    }),
  });
  c.emit({
    type: 'tool_end',
    entry: toolEntry({
      callId: 'c3',
      name: 'read',
      call: 'read("kyoto-2024.md")',
      args: ['kyoto-2024.md'],
      summary: '62 lines',
      durationMs: 5,
    }),
  });
  return c;
}
