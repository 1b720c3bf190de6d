/**
 * What openApp will really run, for the approval card: the model names an app ("Firefox"),
 * but a desktop entry's `Exec=` decides what starts, and a planted
 * `~/.local/share/applications/firefox.desktop` can make that a shell. So the card shows the
 * resolved command line and the file it came from, and a command that is a shell or an
 * interpreter running inline code asks every time, whatever the policy.
 */
import { t, type Lang } from '../../i18n/messages.js';
import path from 'node:path';
import type { ApprovalNeed } from '../types.js';
import { execToArgv } from './desktopEntry.js';
import type { AppInfo, SystemPlatform } from './types.js';

/** Programs that run code given on their command line. */
const INLINE_CODE_RUNNERS =
  /^(sh|bash|dash|zsh|fish|ksh|csh|tcsh|busybox|env|python[\d.]*|perl|ruby|node|nodejs|php|lua|osascript|powershell(\.exe)?|pwsh|cmd(\.exe)?)$/i;

/** One argv entry as a reader would type it: quoted when it holds spaces or quotes. */
function shown(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : JSON.stringify(arg);
}

/** The command line openApp runs for `app` on `platform`, as text, plus its argv when known. */
function commandFor(
  platform: SystemPlatform['label'],
  app: AppInfo,
): { text: string; argv?: string[] } {
  if (platform === 'macOS') return { text: `open -a ${shown(app.target ?? '?')}` };
  if (platform === 'Windows') return { text: shown(app.target ?? '?') };
  try {
    const argv = execToArgv(app.target ?? '');
    return { text: argv.map(shown).join(' '), argv };
  } catch (error) {
    return { text: `(broken Exec line: ${(error as Error).message})` };
  }
}

/** The approval view of `openApp(app)`: the resolved command and its source on the card. */
export function launchNeed(
  platform: SystemPlatform['label'],
  app: AppInfo,
  lang: Lang = 'en',
): ApprovalNeed {
  const command = commandFor(platform, app);
  const detail = `runs: ${command.text}\nfrom: ${app.source}`;
  const program = command.argv?.[0];
  if (program !== undefined && INLINE_CODE_RUNNERS.test(path.basename(program))) {
    return {
      reason: t(lang, 'reason.launchCommandLine', {
        app: app.name,
        program: path.basename(program),
      }),
      detail,
      everyTime: true,
    };
  }
  return { detail };
}
