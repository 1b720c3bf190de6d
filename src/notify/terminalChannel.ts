import type { Notification, NotifyChannel } from './notification.js';
import { cleanLine } from './sanitize.js';

/**
 * The terminal's own notification, written to the screen's output: OSC 9 (iTerm2, kitty),
 * OSC 777 (WezTerm, Ghostty, foot, VTE terminals, urxvt), else a plain BEL, which every
 * terminal turns into a sound, a flash or an urgent window. Inside tmux the sequence is
 * wrapped for passthrough (tmux 3.3+ needs `set -g allow-passthrough on`) and a BEL follows,
 * which tmux turns into its own bell alert when passthrough is off.
 */
export type TerminalStyle = 'osc9' | 'osc777' | 'bel';

const ESC = '\x1b';
const BEL = '\x07';

/** Which notification the terminal the environment describes understands. */
export function terminalStyle(env: NodeJS.ProcessEnv): TerminalStyle {
  const program = env.TERM_PROGRAM ?? '';
  const term = env.TERM ?? '';
  if (program === 'iTerm.app' || env.ITERM_SESSION_ID) return 'osc9';
  if (env.KITTY_WINDOW_ID || term === 'xterm-kitty') return 'osc9';
  if (program === 'WezTerm' || env.WEZTERM_PANE || env.WEZTERM_EXECUTABLE) return 'osc777';
  if (program === 'ghostty' || env.GHOSTTY_RESOURCES_DIR || term === 'xterm-ghostty')
    return 'osc777';
  if (term.startsWith('foot') || term.startsWith('rxvt-unicode')) return 'osc777';
  if (env.VTE_VERSION) return 'osc777';
  return 'bel';
}

/**
 * The bytes for one notification. Title and text are cleaned again here (no control
 * character can end the sequence early); a `;` in the title would start a new OSC 777 field,
 * and a text starting with digits and `;` is a ConEmu / Windows Terminal OSC 9 command
 * (progress bars), so both are defused.
 */
export function terminalSequence(style: TerminalStyle, title: string, text: string): string {
  const body = cleanLine(text);
  switch (style) {
    case 'osc9':
      return `${ESC}]9;${/^\d+;/.test(body) ? ` ${body}` : body}${BEL}`;
    case 'osc777':
      return `${ESC}]777;notify;${cleanLine(title).replace(/;/g, ',')};${body}${BEL}`;
    case 'bel':
      return BEL;
  }
}

/** Wraps a sequence for tmux passthrough: `ESC P tmux; …ESC\`, every ESC inside doubled. */
export function tmuxPassthrough(sequence: string): string {
  return `${ESC}Ptmux;${sequence.split(ESC).join(ESC + ESC)}${ESC}\\`;
}

export interface TerminalChannelOptions {
  /** The screen's output (written between frames: these sequences move no cursor). */
  write(chunk: string): unknown;
  env: NodeJS.ProcessEnv;
}

export function createTerminalChannel(opts: TerminalChannelOptions): NotifyChannel {
  const style = terminalStyle(opts.env);
  const inTmux = Boolean(opts.env.TMUX);
  return {
    name: 'the terminal',
    send(n: Notification) {
      const sequence = terminalSequence(style, n.title, n.text);
      const out = inTmux && style !== 'bel' ? tmuxPassthrough(sequence) + BEL : sequence;
      opts.write(out);
      return Promise.resolve();
    },
  };
}
