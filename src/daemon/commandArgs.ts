/**
 * The background agent's subcommands (`cogito start|status|stop|service|send|approve|deny`)
 * and their options.
 * Each subcommand takes only the options that mean something for it; anything else is a
 * usage error naming the options it does take.
 */
import { parseArgs } from 'node:util';

/**
 * A subcommand used wrongly; the message says how to use it (exit 2). Its own class, so this
 * folder does not import the command line that imports it.
 */
export class DaemonUsageError extends Error {}

export type DaemonCommand =
  | { name: 'start'; foreground: boolean; flags: StartFlags }
  | { name: 'status'; json: boolean; home?: string | undefined }
  | { name: 'stop'; all: boolean; workspace?: string | undefined; home?: string | undefined }
  | {
      name: 'service';
      action: 'install' | 'uninstall';
      workspace?: string | undefined;
      home?: string | undefined;
    }
  | ({ name: 'send'; text: string; wait: boolean; timeoutMs: number; steer: boolean } & FolderFlags)
  | ({ name: 'approve' | 'deny'; always: boolean } & FolderFlags);

/** Which folder's agent a shell command is for (default: the current folder's). */
export interface FolderFlags {
  workspace?: string | undefined;
  home?: string | undefined;
}

/** How long `cogito send --wait` waits for the answer unless `--timeout` says otherwise. */
export const DEFAULT_WAIT_SECONDS = 600;

/** The options `start` passes on to the agent it starts (the same as the app's). */
export interface StartFlags {
  workspace?: string | undefined;
  home?: string | undefined;
  model?: string | undefined;
  baseUrl?: string | undefined;
  persona?: string | undefined;
  thinkIntervalMs?: number | undefined;
  paused: boolean;
  debug: boolean;
}

export const DAEMON_SUBCOMMANDS = [
  ...['start', 'status', 'stop', 'service'],
  ...['send', 'approve', 'deny'],
] as const;

const str = { type: 'string' } as const;
const bool = { type: 'boolean', default: false } as const;

const OPTIONS = {
  start: {
    workspace: str,
    home: str,
    model: str,
    'base-url': str,
    persona: str,
    'think-interval': str,
    paused: bool,
    debug: bool,
    foreground: bool,
  },
  status: { home: str, json: bool },
  stop: { workspace: str, home: str, all: bool },
  service: { workspace: str, home: str },
  send: { workspace: str, home: str, wait: bool, timeout: str, steer: bool },
  approve: { workspace: str, home: str, always: bool },
  deny: { workspace: str, home: str },
} as const;

/** Subcommands that take positional arguments. */
const POSITIONAL: readonly string[] = ['service', 'send'];

/** The subcommand `argv` starts with, parsed; `undefined` when it starts with none. */
export function parseDaemonCommand(argv: readonly string[]): DaemonCommand | undefined {
  const [name, ...rest] = argv;
  if (!DAEMON_SUBCOMMANDS.includes(name as (typeof DAEMON_SUBCOMMANDS)[number])) return undefined;
  const sub = name as (typeof DAEMON_SUBCOMMANDS)[number];
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: rest,
      options: OPTIONS[sub],
      allowPositionals: POSITIONAL.includes(sub),
      strict: true,
    }) as { values: Record<string, string | boolean | undefined>; positionals: string[] });
  } catch (err) {
    const known = Object.keys(OPTIONS[sub])
      .map((o) => `--${o}`)
      .join(', ');
    throw new DaemonUsageError(`${(err as Error).message}. cogito ${sub} takes: ${known}`);
  }
  const text = (k: string): string | undefined =>
    typeof values[k] === 'string' ? values[k] : undefined;
  switch (sub) {
    case 'start':
      return {
        name: 'start',
        foreground: values.foreground === true,
        flags: startFlags(values, text),
      };
    case 'status':
      return { name: 'status', json: values.json === true, home: text('home') };
    case 'stop':
      if (values.all === true && text('workspace') !== undefined) {
        throw new DaemonUsageError('cogito stop takes --workspace DIR or --all, not both');
      }
      return {
        name: 'stop',
        all: values.all === true,
        workspace: text('workspace'),
        home: text('home'),
      };
    case 'service': {
      const [action, ...extra] = positionals;
      if ((action !== 'install' && action !== 'uninstall') || extra.length > 0) {
        throw new DaemonUsageError(
          'usage: cogito service install|uninstall [--workspace DIR] [--home DIR]',
        );
      }
      return { name: 'service', action, workspace: text('workspace'), home: text('home') };
    }
    case 'send':
      return sendCommand(positionals, values, text);
    case 'approve':
    case 'deny':
      return {
        name: sub,
        always: values.always === true,
        workspace: text('workspace'),
        home: text('home'),
      };
  }
}

function sendCommand(
  positionals: string[],
  values: Record<string, string | boolean | undefined>,
  text: (k: string) => string | undefined,
): DaemonCommand {
  const [message, ...extra] = positionals;
  if (message === undefined || message.trim() === '' || extra.length > 0) {
    throw new DaemonUsageError(
      'usage: cogito send "MESSAGE" [--steer] [--workspace DIR] [--wait [--timeout SECONDS]] ' +
        '(one message, quoted; it must not be empty)',
    );
  }
  const timeout = text('timeout');
  const seconds = timeout === undefined ? DEFAULT_WAIT_SECONDS : Number(timeout);
  if (!Number.isInteger(seconds) || seconds < 1) {
    throw new DaemonUsageError(`--timeout expects a whole number of seconds ≥ 1, got "${timeout}"`);
  }
  if (values.wait === true && message.trim().startsWith('/') && !message.trim().startsWith('//')) {
    throw new DaemonUsageError(
      `--wait waits for a reply, and the slash command ${message.trim()} gets none (its output is a notice): leave --wait out`,
    );
  }
  if (timeout !== undefined && values.wait !== true) {
    throw new DaemonUsageError('--timeout is for --wait: add --wait, or leave --timeout out');
  }
  return {
    name: 'send',
    text: message,
    wait: values.wait === true,
    // Read at the work in flight's next tool call, rather than when its turn ends.
    steer: values.steer === true,
    timeoutMs: seconds * 1000,
    workspace: text('workspace'),
    home: text('home'),
  };
}

function startFlags(
  values: Record<string, string | boolean | undefined>,
  text: (k: string) => string | undefined,
): StartFlags {
  const interval = text('think-interval');
  let thinkIntervalMs: number | undefined;
  if (interval !== undefined) {
    thinkIntervalMs = Number(interval);
    if (!Number.isInteger(thinkIntervalMs) || thinkIntervalMs < 0) {
      throw new DaemonUsageError(`--think-interval expects a whole number ≥ 0, got "${interval}"`);
    }
  }
  return {
    workspace: text('workspace'),
    home: text('home'),
    model: text('model'),
    baseUrl: text('base-url'),
    persona: text('persona'),
    thinkIntervalMs,
    paused: values.paused === true,
    debug: values.debug === true,
  };
}

/** The same options again as arguments, for the process `start` spawns. */
export function startArgs(flags: StartFlags): string[] {
  const args: string[] = [];
  const add = (name: string, v: string | number | undefined): void => {
    if (v !== undefined) args.push(`--${name}`, String(v));
  };
  add('workspace', flags.workspace);
  add('home', flags.home);
  add('model', flags.model);
  add('base-url', flags.baseUrl);
  add('persona', flags.persona);
  add('think-interval', flags.thinkIntervalMs);
  if (flags.paused) args.push('--paused');
  if (flags.debug) args.push('--debug');
  return args;
}
