import { parseArgs } from 'node:util';

export interface CliFlags {
  print?: string;
  json: boolean;
  workspace?: string;
  model?: string;
  baseUrl?: string;
  home?: string;
  persona?: string;
  session?: string;
  paused: boolean;
  setup: boolean;
  debug: boolean;
  version: boolean;
  help: boolean;
  maxCycles?: number;
  thinkIntervalMs?: number;
  /** `--download-model [NAME]`: '' when no name was given (the machine decides). */
  downloadModel?: string;
}

export const HELP = `Cogito: a local, always-on AI agent in your terminal.

Usage:
  cogito                          open the full-screen app in the current folder
  cogito -p "PROMPT" [options]    run headless: stream to stdout, exit on [WAIT]

Options:
  -p, --print PROMPT      headless print mode with this first message
      --json              print mode: one JSON event per line
      --max-cycles N      print mode: stop after N turns (default 10)
      --workspace DIR     the folder the agent works in (default: current folder)
      --model NAME        model name (env COGITO_MODEL)
      --base-url URL      OpenAI-compatible endpoint (env COGITO_BASE_URL)
      --home DIR          app home holding config.json and data/ (env COGITO_HOME)
      --persona ID        persona to use
      --session ID        resume this session instead of the latest
      --paused            start with autonomy paused
      --think-interval MS delay between autonomous turns
      --setup             run the setup wizard
      --download-model [small|medium|large|hf:USER/REPO/FILE.gguf|URL]
                          download a local model into the home's models/ and
                          configure it (no name: the size that fits this machine;
                          env COGITO_MODELS_URL redirects the source to a mirror)
      --debug             write a debug log under the home
  -v, --version           print the version
  -h, --help              show this help

The API key comes from COGITO_API_KEY or OPENAI_API_KEY (or config.json); it is never printed.`;

export class UsageError extends Error {}

function parseCount(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    throw new UsageError(`--${name} expects a whole number ≥ ${min}, got "${raw}"`);
  }
  return n;
}

/** `--download-model` takes an optional name: alone (or before another flag) it means ''. */
function withOptionalValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  argv.forEach((arg, i) => {
    out.push(arg);
    const next = argv[i + 1];
    if (arg === '--download-model' && (next === undefined || next.startsWith('-'))) out.push('');
  });
  return out;
}

/** Parses argv (without node and script). Throws UsageError with a message naming the fix. */
export function parseCliArgs(argv: readonly string[]): CliFlags {
  let parsed;
  try {
    parsed = parseArgs({
      args: withOptionalValues(argv),
      allowPositionals: false,
      strict: true,
      options: {
        print: { type: 'string', short: 'p' },
        json: { type: 'boolean', default: false },
        workspace: { type: 'string' },
        model: { type: 'string' },
        'base-url': { type: 'string' },
        home: { type: 'string' },
        persona: { type: 'string' },
        session: { type: 'string' },
        paused: { type: 'boolean', default: false },
        setup: { type: 'boolean', default: false },
        debug: { type: 'boolean', default: false },
        version: { type: 'boolean', short: 'v', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        'max-cycles': { type: 'string' },
        'think-interval': { type: 'string' },
        'download-model': { type: 'string' },
      },
    });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}. Run cogito --help for the options.`);
  }
  const v = parsed.values;
  const flags: CliFlags = {
    json: v.json ?? false,
    paused: v.paused ?? false,
    setup: v.setup ?? false,
    debug: v.debug ?? false,
    version: v.version ?? false,
    help: v.help ?? false,
  };
  if (v.print !== undefined) flags.print = v.print;
  if (v.workspace !== undefined) flags.workspace = v.workspace;
  if (v.model !== undefined) flags.model = v.model;
  if (v['base-url'] !== undefined) flags.baseUrl = v['base-url'];
  if (v.home !== undefined) flags.home = v.home;
  if (v.persona !== undefined) flags.persona = v.persona;
  if (v.session !== undefined) flags.session = v.session;
  if (v['download-model'] !== undefined) flags.downloadModel = v['download-model'];
  const maxCycles = parseCount('max-cycles', v['max-cycles'], 1);
  if (maxCycles !== undefined) flags.maxCycles = maxCycles;
  const interval = parseCount('think-interval', v['think-interval'], 0);
  if (interval !== undefined) flags.thinkIntervalMs = interval;
  if (flags.json && flags.print === undefined)
    throw new UsageError('--json works with -p "PROMPT" (print mode)');
  return flags;
}
