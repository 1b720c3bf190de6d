/**
 * The terminal's own notification: which sequence for which terminal, and the attack a
 * hostile model can try through it — a reply carrying escape sequences, meant to reach the
 * user's terminal inside the notification. An independent emulator (@xterm/headless) judges
 * what the written bytes do.
 */
import xterm from '@xterm/headless';
import { afterEach, describe, expect, test } from 'vitest';
import { attachNotifier } from '../../src/notify/attach.js';
import { notifySchema } from '../../src/config/notifySchema.js';
import {
  createTerminalChannel,
  terminalSequence,
  terminalStyle,
} from '../../src/notify/terminalChannel.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { waitForStore } from '../helpers/waitFor.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe('the sequence for the terminal', () => {
  test.each([
    [{ TERM_PROGRAM: 'iTerm.app' }, 'osc9'],
    [{ KITTY_WINDOW_ID: '1', TERM: 'xterm-kitty' }, 'osc9'],
    [{ TERM_PROGRAM: 'WezTerm' }, 'osc777'],
    [{ TERM_PROGRAM: 'ghostty' }, 'osc777'],
    [{ TERM: 'foot' }, 'osc777'],
    [{ VTE_VERSION: '7600', TERM: 'xterm-256color' }, 'osc777'],
    [{ TERM: 'xterm-256color' }, 'bel'],
    [{}, 'bel'],
  ] as const)('%o: %s', (env, style) => {
    expect(terminalStyle(env)).toBe(style);
  });

  test('OSC 9, OSC 777 with a title, BEL; tmux wraps for passthrough and adds a bell', () => {
    expect(terminalSequence('osc9', 'Cogito', 'Ready?')).toBe('\x1b]9;Ready?\x07');
    expect(terminalSequence('osc777', 'Co;gito', 'Ready?')).toBe(
      '\x1b]777;notify;Co,gito;Ready?\x07',
    );
    expect(terminalSequence('bel', 'Cogito', 'Ready?')).toBe('\x07');
    // ConEmu and Windows Terminal read "4;…" after OSC 9 as a progress bar command.
    expect(terminalSequence('osc9', 'Cogito', '4;3;50')).toBe('\x1b]9; 4;3;50\x07');
    const written: string[] = [];
    const channel = createTerminalChannel({
      write: (s) => written.push(s),
      env: { TMUX: '/tmp/tmux-1/default,1,0', KITTY_WINDOW_ID: '3' },
    });
    void channel.send({ kind: 'wait', key: 'k', title: 'Cogito', text: 'Ready?', at: 0 });
    expect(written).toEqual(['\x1bPtmux;\x1b\x1b]9;Ready?\x07\x1b\\\x07']);
  });
});

/** Replays bytes into an emulator; what they printed and which titles they set. */
async function emulate(bytes: string): Promise<{ text: string; titles: string[] }> {
  const term = new xterm.Terminal({ cols: 80, rows: 5, allowProposedApi: true });
  const titles: string[] = [];
  term.onTitleChange((t) => titles.push(t));
  await new Promise<void>((resolve) => term.write(bytes, resolve));
  const rows: string[] = [];
  for (let y = 0; y < 5; y++) rows.push(term.buffer.active.getLine(y)!.translateToString(true));
  term.dispose();
  return { text: rows.join('\n').trim(), titles };
}

describe('attack: a hostile reply tries to write escape sequences into the terminal', () => {
  const HOSTILE =
    'Done\x07\x1b]0;pwned\x07\x1b[2J\x1b[31mINJECTED\x9b1;1H\u202eevil\x1b\\ now? [WAIT]';

  test.each(['osc9', 'osc777', 'bel'] as const)(
    '%s: one notification sequence, nothing printed, no title set',
    async (style) => {
      const env = {
        osc9: { TERM_PROGRAM: 'iTerm.app' },
        osc777: { TERM_PROGRAM: 'WezTerm' },
        bel: {},
      }[style];
      h = await createHarness();
      const written: string[] = [];
      attachNotifier(h.agent, {
        config: notifySchema.parse({}),
        screen: {
          focused: () => false,
          channel: createTerminalChannel({ write: (s) => written.push(s), env }),
        },
        env: { PATH: '/nonexistent' },
      });
      h.server.push({ kind: 'stream', content: HOSTILE });
      h.agent.start();
      h.agent.send({ type: 'submit', text: 'finish up' });
      await waitForStore(h.agent.store, (s) => s.machine === 'AWAITING_INPUT', '[WAIT]');
      await h.agent.idle();
      expect(written).toHaveLength(1);
      const bytes = written[0]!;
      // Exactly one ESC (the sequence's own start) and one BEL (its end), or the lone BEL.
      expect(bytes.split('\x1b').length - 1).toBe(style === 'bel' ? 0 : 1);
      expect(bytes.split('\x07').length - 1).toBe(1);
      expect(bytes).not.toMatch(/[\u0080-\u009f\u202e]/);
      if (style !== 'bel') expect(bytes).toContain('Done ]0;pwned [2J [31mINJECTED 1;1H evil');
      const seen = await emulate(bytes);
      expect(seen).toEqual({ text: '', titles: [] });
    },
  );
});
