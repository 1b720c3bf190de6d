/**
 * OSC 8 hyperlinks: link text the terminal makes clickable. Only terminals known to handle
 * them get the sequence (others may print it as junk); the URL is shown beside the text in
 * every case, so nothing depends on it.
 */

/** Whether the terminal described by `env` shows OSC 8 hyperlinks. */
export function supportsHyperlinks(env: NodeJS.ProcessEnv): boolean {
  if (env.FORCE_HYPERLINK !== undefined) return env.FORCE_HYPERLINK !== '0';
  // tmux 3.3 drops them unless configured to pass them on, and screen never does.
  if (env.TMUX || env.STY) return false;
  if (env.WT_SESSION || env.KITTY_WINDOW_ID || env.WEZTERM_PANE) return true;
  const program = env.TERM_PROGRAM ?? '';
  if (['iTerm.app', 'WezTerm', 'vscode', 'ghostty', 'Hyper'].includes(program)) return true;
  const vte = Number(env.VTE_VERSION ?? '0');
  return vte >= 5000;
}

/** `text` wrapped in an OSC 8 hyperlink to `url` (control characters kept out of the URL). */
export function hyperlink(text: string, url: string): string {
  // eslint-disable-next-line no-control-regex
  const safe = url.replace(/[\x00-\x1f\x7f-\x9f]/g, '');
  return `\x1b]8;;${safe}\x07${text}\x1b]8;;\x07`;
}

let detected: boolean | undefined;

/** `supportsHyperlinks` for this process's terminal, decided once. */
export function terminalHyperlinks(): boolean {
  return (detected ??= supportsHyperlinks(process.env));
}
