import { parseArgs, type ParseArgsConfig } from 'node:util';
import { parseApproveKinds, type ToolKind } from './approveFlag.js';
import { UsageError } from './usageError.js';
import { invokedAs } from '../core/invokedAs.js';

export interface CliFlags {
  print?: string;
  json: boolean;
  workspace?: string;
  model?: string;
  baseUrl?: string;
  home?: string;
  persona?: string;
  session?: string;
  /** `-c`: print mode continues this folder's latest session instead of starting one. */
  continue: boolean;
  /** Print mode: the model's whole replies and reasoning on stderr too. */
  verbose: boolean;
  force: boolean;
  paused: boolean;
  setup: boolean;
  debug: boolean;
  where: boolean;
  version: boolean;
  help: boolean;
  maxCycles?: number;
  thinkIntervalMs?: number;
  /** `--approve KINDS` (print mode): these tool kinds run without asking for this run. */
  approve?: ToolKind[];
  /** `--download-model [NAME]`: '' when no name was given (the machine decides). */
  downloadModel?: string;
}

/** One command-line option: how it parses and how `--help` describes it. */
export interface CliOption {
  /** The long name, without the dashes. */
  name: string;
  short?: string;
  /** A string option's value in `--help`, e.g. `DIR`; boolean options have none. */
  value?: string;
  /** The value may be left out (then it is ''). */
  optionalValue?: boolean;
  /** One line, or several separated by `\n`. */
  help: string;
}

/**
 * Every option, in `--help` order. The parser is built from this table and so is the help
 * text, so the two cannot disagree.
 */
export const CLI_OPTIONS: readonly CliOption[] = [
  {
    name: 'print',
    short: 'p',
    value: 'PROMPT',
    help: 'headless print mode with this first message',
  },
  { name: 'json', help: 'print mode: one JSON event per line' },
  {
    name: 'continue',
    short: 'c',
    help: "print mode: continue this folder's latest -p session\n(default: a new session each run)",
  },
  {
    name: 'verbose',
    help: 'print mode: also the narration, tool-call text and\nreasoning, on stderr',
  },
  {
    name: 'max-cycles',
    value: 'N',
    help: 'print mode: turns to run, the first answering the\nprompt (default 1: just the answer)',
  },
  {
    name: 'approve',
    value: 'KINDS',
    help:
      'print mode: run these tool kinds without asking, for\n' +
      'this run only: write,network,… or all (protected\n' +
      'places stay refused or declined)',
  },
  {
    name: 'workspace',
    value: 'DIR',
    help: 'the folder the agent works in (default: current folder)',
  },
  { name: 'model', value: 'NAME', help: 'model name (env COGITO_MODEL)' },
  { name: 'base-url', value: 'URL', help: 'OpenAI-compatible endpoint (env COGITO_BASE_URL)' },
  {
    name: 'home',
    value: 'DIR',
    help: 'app home holding config.json and data/ (env COGITO_HOME)',
  },
  { name: 'persona', value: 'ID', help: 'persona to use' },
  {
    name: 'session',
    value: 'ID',
    help: "resume this session (-p: instead of a new one;\nthe app: instead of this folder's latest)",
  },
  { name: 'force', help: "with --session: continue another workspace's session here" },
  { name: 'paused', help: 'start with autonomy paused' },
  { name: 'think-interval', value: 'MS', help: 'delay between autonomous turns' },
  { name: 'setup', help: 'run the setup wizard' },
  {
    name: 'download-model',
    value: '[small|medium|large|hf:USER/REPO/FILE.gguf|URL]',
    optionalValue: true,
    help:
      "download a local model into the home's models/ and\n" +
      'configure it (no name: the size that fits this machine;\n' +
      'env COGITO_MODELS_URL redirects the source to a mirror)',
  },
  { name: 'debug', help: 'write a debug log under the home' },
  { name: 'where', help: 'print where the home, config, data and personas are, then exit' },
  { name: 'version', short: 'v', help: 'print the version' },
  { name: 'help', short: 'h', help: 'show this help' },
];

/** Where the descriptions start in `--help`. */
const HELP_COLUMN = 24;

function usageOf(o: CliOption): string {
  const names = `${o.short ? `-${o.short}, ` : '    '}--${o.name}${o.value ? ` ${o.value}` : ''}`;
  const indent = `  ${' '.repeat(HELP_COLUMN)}`;
  const [first = '', ...more] = o.help.split('\n');
  // A long option name puts its description on the next line.
  const head =
    names.length < HELP_COLUMN
      ? `  ${names.padEnd(HELP_COLUMN)}${first}`
      : `  ${names}\n${indent}${first}`;
  return [head, ...more.map((line) => `${indent}${line}`)].join('\n');
}

/** The `--help` text, from {@link CLI_OPTIONS}. */
export const HELP = [
  'Cogito: a local, always-on AI agent in your terminal.',
  '',
  'Usage:',
  '  cogito                          open the full-screen app in the current folder',
  '  cogito -p "PROMPT" [options]    run headless: the final answer to stdout, progress to stderr',
  "  cogito start [--workspace DIR]  run the folder's agent in the background (no screen)",
  '  cogito status [--json]          list the background agents: state, activity, tokens',
  '  cogito stop [--workspace DIR | --all]',
  "  cogito service install|uninstall [--workspace DIR]   start the folder's agent at login",
  '  cogito send "TEXT" [--steer] [--workspace DIR] [--wait [--timeout SECONDS]]',
  "                                  a message for the folder's background agent, taken at",
  '                                  its next turn boundary (--steer: at its next tool call,',
  '                                  as an amendment to the task); --wait prints the answer',
  "  cogito approve [--always] | deny [--workspace DIR]   answer the agent's waiting approval",
  '',
  'Options:',
  ...CLI_OPTIONS.map(usageOf),
  '',
  'The API key comes from COGITO_API_KEY or OPENAI_API_KEY (or config.json); it is never printed.',
  'Exit codes: 0 done, 1 failed, 2 bad configuration or arguments, 3 the folder is taken,',
  '  4 no background agent runs in the folder (send, approve, deny), 130 interrupted.',
].join('\n');

export { UsageError };

function parseCount(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    throw new UsageError(`--${name} expects a whole number ≥ ${min}, got "${raw}"`);
  }
  return n;
}

type ParseOptions = NonNullable<ParseArgsConfig['options']>;

function parserOptions(): ParseOptions {
  return Object.fromEntries(
    CLI_OPTIONS.map((o) => [
      o.name,
      o.value
        ? { type: 'string' as const, ...(o.short ? { short: o.short } : {}) }
        : { type: 'boolean' as const, default: false, ...(o.short ? { short: o.short } : {}) },
    ]),
  );
}

/** An option with an optional value, alone (or before another flag), gets ''. */
function withOptionalValues(argv: readonly string[]): string[] {
  const optional = new Set(CLI_OPTIONS.filter((o) => o.optionalValue).map((o) => `--${o.name}`));
  const out: string[] = [];
  argv.forEach((arg, i) => {
    out.push(arg);
    const next = argv[i + 1];
    if (optional.has(arg) && (next === undefined || next.startsWith('-'))) out.push('');
  });
  return out;
}

/** Parses argv (without node and script). Throws UsageError with a message naming the fix. */
export function parseCliArgs(argv: readonly string[]): CliFlags {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: withOptionalValues(argv),
      allowPositionals: false,
      strict: true,
      options: parserOptions(),
    }).values as Record<string, string | boolean | undefined>;
  } catch (err) {
    throw new UsageError(`${(err as Error).message}. Run ${invokedAs()} --help for the options.`);
  }
  const text = (name: string): string | undefined =>
    typeof values[name] === 'string' ? values[name] : undefined;
  const on = (name: string): boolean => values[name] === true;
  const flags: CliFlags = {
    json: on('json'),
    continue: on('continue'),
    verbose: on('verbose'),
    force: on('force'),
    paused: on('paused'),
    setup: on('setup'),
    debug: on('debug'),
    where: on('where'),
    version: on('version'),
    help: on('help'),
  };
  const strings = [
    ['print', 'print'],
    ['workspace', 'workspace'],
    ['model', 'model'],
    ['base-url', 'baseUrl'],
    ['home', 'home'],
    ['persona', 'persona'],
    ['session', 'session'],
    ['download-model', 'downloadModel'],
  ] as const;
  for (const [name, field] of strings) {
    const value = text(name);
    if (value !== undefined) flags[field] = value;
  }
  const maxCycles = parseCount('max-cycles', text('max-cycles'), 1);
  if (maxCycles !== undefined) flags.maxCycles = maxCycles;
  const approve = text('approve');
  if (approve !== undefined) flags.approve = parseApproveKinds(approve);
  const interval = parseCount('think-interval', text('think-interval'), 0);
  if (interval !== undefined) flags.thinkIntervalMs = interval;
  if (flags.json && flags.print === undefined)
    throw new UsageError('--json works with -p "PROMPT" (print mode)');
  if (flags.continue && flags.session !== undefined)
    throw new UsageError(
      "--continue picks this folder's latest session and --session ID a given one: use one of them",
    );
  if (flags.approve !== undefined && flags.print === undefined)
    throw new UsageError(
      '--approve works with -p "PROMPT" (print mode); in the app use /approve KIND auto',
    );
  if (flags.verbose && flags.print === undefined)
    throw new UsageError('--verbose works with -p "PROMPT" (print mode)');
  if (flags.force && flags.session === undefined)
    throw new UsageError('--force works with --session ID (it opens that session here)');
  return flags;
}
