/**
 * What a chat API is sent: a conversation opens with the user's words. A session resumed
 * after autonomous turns (whose notes are not kept) would open with the agent's reply, which
 * chat templates and several APIs reject; it gets a user-role line first. A live session's
 * first note already opens it, so its requests are not changed (each extends the last).
 */
import { describe, expect, test } from 'vitest';
import { buildChatMessages, OPENING_CUE, SUMMARY_CUE } from '../../src/history/chatMessages.js';
import { makeMessage } from '../../src/core/messages.js';

const roles = (m: { role: string }[]): string[] => m.map((x) => x.role);

describe('the opening of the conversation', () => {
  test('a resumed session that starts with the agent: a user-role line opens it', () => {
    const history = [
      makeMessage('assistant', 'I looked around the folder.'),
      makeMessage('tool', '[RESULT] ls: a.txt'),
      makeMessage('user', 'what is in a.txt?'),
    ];
    const out = buildChatMessages('SYSTEM', history);
    expect(roles(out)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(out[1]!.content).toBe(OPENING_CUE);
    expect(out[2]!.content).toBe('I looked around the folder.');
  });

  test('a live session whose first turn had its note: unchanged, no extra line', () => {
    const history = [makeMessage('assistant', 'I looked around the folder.')];
    const notes = new Map([['', ['(Started. Time: 09:00.)']]]);
    const out = buildChatMessages('SYSTEM', history, { notes, autonomousCue: '(go on)' });
    expect(out.map((m) => m.content)).toEqual([
      'SYSTEM',
      '(Started. Time: 09:00.)',
      'I looked around the folder.',
      '(go on)',
    ]);
  });

  test('a session that starts with the user, or with a summary, keeps its own opening', () => {
    expect(roles(buildChatMessages('S', [makeMessage('user', 'hi')]))).toEqual(['system', 'user']);
    const summary = makeMessage('assistant', 'we talked', { summary: true });
    const out = buildChatMessages('S', [summary, makeMessage('assistant', 'then I read')]);
    expect(out[1]!.content).toBe(SUMMARY_CUE);
    expect(out.filter((m) => m.content === OPENING_CUE)).toEqual([]);
  });
});
