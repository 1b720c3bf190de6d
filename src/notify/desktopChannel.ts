import type { NotifySettings } from '../config/notifySchema.js';
import type { Notification, NotifyChannel } from './notification.js';
import { plainBody } from './bodyMarkup.js';
import type { ExecaError } from 'execa';
import type * as ExecaApi from 'execa';

type ExecaModule = typeof ExecaApi;

/**
 * The desktop's notification, for when nobody watches the screen (a background agent) or
 * the user asked for it (`notify.desktop`): `notify-send` on Linux and the BSDs, `osascript`
 * on macOS, a PowerShell toast on Windows, or the user's own `notify.command` given the event
 * as JSON on stdin. The untrusted text is only ever an argument, an environment variable or
 * stdin: nothing runs through a shell, so nothing in it is interpreted. notify-send's body is
 * markup to the notification server, so it gets it escaped (bodyMarkup.ts); osascript and the
 * toast take plain text, and `notify.command` gets the plain text in JSON.
 */

/** How long one notifier may run before it is killed (it should take milliseconds). */
export const NOTIFY_TIMEOUT_MS = 5000;

/** What `notify.command` reads on stdin, one JSON object. */
export interface NotifyCommandEvent {
  kind: Notification['kind'];
  title: string;
  text: string;
  /** The occurrence's key: the same key never comes twice. */
  key: string;
  /** ISO 8601 time of the event. */
  at: string;
  /** The folder the agent works in. */
  workspace?: string;
}

interface Invocation {
  file: string;
  args: string[];
  env?: Record<string, string>;
  input?: string;
}

// Reads the text from argv, so no quoting of it is needed (or possible to get wrong).
const APPLESCRIPT = [
  'on run argv',
  'display notification (item 2 of argv) with title (item 1 of argv)',
  'end run',
];

// The text arrives in environment variables and is only ever used as XML text nodes.
const POWERSHELL_TOAST = [
  '$ErrorActionPreference = "Stop"',
  '[Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, ContentType = WindowsRuntime] | Out-Null',
  '$xml = [Windows.UI.Notifications.ToastNotificationManager]::GetTemplateContent([Windows.UI.Notifications.ToastTemplateType]::ToastText02)',
  '$texts = $xml.GetElementsByTagName("text")',
  '$texts.Item(0).AppendChild($xml.CreateTextNode($env:COGITO_NOTIFY_TITLE)) | Out-Null',
  '$texts.Item(1).AppendChild($xml.CreateTextNode($env:COGITO_NOTIFY_TEXT)) | Out-Null',
  '$toast = [Windows.UI.Notifications.ToastNotification]::new($xml)',
  '[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier("Cogito").Show($toast)',
].join('; ');

/** The program the platform notifies with, and how the notification reaches it. */
export function platformInvocation(platform: NodeJS.Platform, n: Notification): Invocation {
  if (platform === 'darwin') {
    const script = APPLESCRIPT.flatMap((line) => ['-e', line]);
    return { file: 'osascript', args: [...script, n.title, n.text] };
  }
  if (platform === 'win32') {
    return {
      file: 'powershell.exe',
      args: ['-NoProfile', '-NonInteractive', '-Command', POWERSHELL_TOAST],
      env: { COGITO_NOTIFY_TITLE: n.title, COGITO_NOTIFY_TEXT: n.text },
    };
  }
  // `--`: a text starting with "-" is the body, not an option. The body is read as markup by
  // the notification servers: plainBody keeps it plain text, with no clickable link.
  return { file: 'notify-send', args: ['--app-name=Cogito', '--', n.title, plainBody(n.text)] };
}

/**
 * execa, loaded the first time a notification goes out: a start that never notifies (and
 * `cogito --version`) does not pay for it (test/tools/lazyImports.test.ts watches it).
 */
let execaModule: Promise<ExecaModule> | undefined;
const loadExeca = (): Promise<ExecaModule> => (execaModule ??= import('execa'));

/** `notify.command` as program and arguments (a string is split as execa splits it). */
async function commandArgv(command: string | readonly string[]): Promise<string[]> {
  if (typeof command !== 'string') return [...command];
  return (await loadExeca()).parseCommandString(command);
}

/** A notification with nothing in it: asks `platformInvocation` only which program it runs. */
const BLANK: Notification = { kind: 'wait', key: '', title: '', text: '', at: 0 };

export interface DesktopChannelOptions {
  config: Pick<NotifySettings, 'command'>;
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  workspace?: string;
  timeoutMs?: number;
}

export function createDesktopChannel(opts: DesktopChannelOptions): NotifyChannel {
  const platform = opts.platform ?? process.platform;
  const own = opts.config.command;
  const name = own !== undefined ? 'notify.command' : platformInvocation(platform, BLANK).file;
  return {
    name,
    async send(n) {
      const { execa, ExecaError } = await loadExeca();
      const call =
        own !== undefined
          ? commandInvocation(await commandArgv(own), n, opts.workspace)
          : platformInvocation(platform, n);
      try {
        await execa(call.file, call.args, {
          env: { ...(opts.env ?? process.env), ...call.env },
          extendEnv: false,
          ...(call.input === undefined ? { stdin: 'ignore' } : { input: call.input }),
          stdout: 'ignore',
          stderr: 'pipe',
          timeout: opts.timeoutMs ?? NOTIFY_TIMEOUT_MS,
          forceKillAfterDelay: 1000,
        });
      } catch (err) {
        const failed = err instanceof ExecaError ? err : undefined;
        throw new Error(explain(call.file, err, failed, own !== undefined));
      }
    },
  };
}

function commandInvocation(
  argv: readonly string[],
  n: Notification,
  workspace: string | undefined,
): Invocation {
  const event: NotifyCommandEvent = {
    kind: n.kind,
    title: n.title,
    text: n.text,
    key: n.key,
    at: new Date(n.at).toISOString(),
    ...(workspace ? { workspace } : {}),
  };
  return { file: argv[0]!, args: argv.slice(1), input: `${JSON.stringify(event)}\n` };
}

/** One line naming what went wrong and what to do about it. */
function explain(file: string, err: unknown, failed: ExecaError | undefined, own: boolean): string {
  const fix = own
    ? 'check "notify.command" in config.json'
    : 'install it, or set "notify.command" in config.json to a program of your own';
  if (!failed) return `${file}: ${String(err)}; ${fix}`;
  if (failed.code === 'ENOENT') return `${file} was not found; ${fix}`;
  if (failed.timedOut) return `${file} did not finish within its time and was stopped; ${fix}`;
  const said = failed.stderr ? `: ${String(failed.stderr).trim().slice(0, 200)}` : '';
  return `${file} exited with code ${failed.exitCode ?? '?'}${said}; ${fix}`;
}
