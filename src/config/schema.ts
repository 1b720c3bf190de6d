import { z } from 'zod';
import { mcpServersSchema } from './mcpSchema.js';
import { parseAllowEntry } from './allowHosts.js';
import {
  APPROVAL_POLICIES,
  DEFAULT_MAX_ENTRIES,
  DEFAULT_MAX_RESULTS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  FETCH_DEFAULTS,
  RUN_DEFAULTS,
} from './defaults.js';
import { notifySchema } from './notifySchema.js';

/**
 * The settings in `config.json`. Every field is optional in the file; the parsed output
 * carries the defaults. Objects are strict so a misspelt key is reported instead of being
 * silently ignored, and nested objects use `prefault({})` so their own defaults apply when
 * the whole object is absent (zod 4's `default` would skip them).
 */

const int = () => z.int();
const nonNegativeInt = () => int().min(0);
const positiveInt = () => int().min(1);
const httpUrl = () => z.url({ protocol: /^https?$/ });

/** The approval policy for one tool kind. */
const approvalPolicySchema = z.enum(APPROVAL_POLICIES);

const approvalSchema = z
  .strictObject({
    read: approvalPolicySchema.default('auto'),
    write: approvalPolicySchema.default('auto'),
    destructive: approvalPolicySchema.default('ask'),
    network: approvalPolicySchema.default('auto'),
    process: approvalPolicySchema.default('ask'),
  })
  .prefault({});

const searchSchema = z
  .strictObject({
    provider: z.enum(['duckduckgo', 'searxng', 'tavily', 'brave']).default('duckduckgo'),
    searxngUrl: httpUrl().optional(),
    tavilyKey: z.string().min(1).optional(),
    braveKey: z.string().min(1).optional(),
    maxResults: int().min(1).max(50).default(DEFAULT_MAX_RESULTS),
  })
  .prefault({});

const fetchSchema = z
  .strictObject({
    timeoutMs: positiveInt().default(FETCH_DEFAULTS.timeoutMs),
    maxBytes: positiveInt().default(FETCH_DEFAULTS.maxBytes),
    /** Let web tools reach loopback, private and link-local addresses (default false). */
    allowPrivateNetwork: z.boolean().default(false),
    /** `host` or `host:port` entries reachable even when private, e.g. "localhost:8888". */
    allowHosts: z
      .array(
        z.string().refine((entry) => parseAllowEntry(entry) !== undefined, {
          message: 'is not a host or host:port',
          params: {
            fix: 'Write just the host and, if needed, the port, e.g. "localhost:8888" or "192.168.1.10" (no http://, no path).',
          },
        }),
      )
      .default([]),
  })
  .prefault({});

const backoffSchema = z
  .strictObject({
    baseMs: positiveInt().default(2_000),
    maxMs: positiveInt().default(60_000),
  })
  .refine((b) => b.maxMs >= b.baseMs, {
    path: ['maxMs'],
    message: 'is smaller than backoff.baseMs, so the delay could never grow',
    params: { fix: 'Set backoff.maxMs to at least backoff.baseMs (default 60000).' },
  })
  .prefault({});

/** The default `tokenBudgetPerDay`: about the price of a coffee a day on DeepSeek or Qwen. */
export const DEFAULT_DAILY_BUDGET = 2_000_000;

/*
 * Defaults the agent's parts also fall back to when built without a config (tests, embedders).
 * Declared here once; the agent imports them (config never imports the agent).
 */
/** `pacing.maxIntervalMs`: the longest rest between two autonomous looks. */
export const DEFAULT_MAX_INTERVAL_MS = 30 * 60_000;
/** `watch.minWakeIntervalMs`. */
export const DEFAULT_MIN_WAKE_INTERVAL_MS = 30_000;
/** `watch.maxWakesPerHour`. */
export const DEFAULT_MAX_WAKES_PER_HOUR = 20;
/** `watch.resumeAfterWaitMs`: how long an autonomous question holds the watch back. */
export const DEFAULT_RESUME_AFTER_WAIT_MS = 30 * 60_000;
/** `maxToolCallsPerReply`. */
export const DEFAULT_MAX_CALLS_PER_REPLY = 25;
/** `maxStepsPerTurn`. */
export const DEFAULT_MAX_STEPS_PER_TURN = 25;

/** Pacing: how long the agent may rest between looks when nothing changes. */
const pacingSchema = z
  .strictObject({
    /** The longest rest between two autonomous looks (default 30 minutes). */
    maxIntervalMs: positiveInt().default(DEFAULT_MAX_INTERVAL_MS),
    /**
     * How long the provider keeps a prompt prefix cached (default 5 minutes; 0: no cache, the
     * rule is off). Pacing never rests for a period that lands just past it.
     */
    cacheTtlSeconds: nonNegativeInt().default(300),
  })
  .prefault({});

/** The workspace watcher: what it leaves out, how much it holds, how often it may wake. */
const watchSchema = z
  .strictObject({
    /** `.gitignore`-style patterns not watched, besides `.gitignore` and `.cogitoignore`. */
    ignore: z.array(z.string().min(1)).default([]),
    /** Files and folders watched at most; past it the rest is left to the timed looks. */
    maxEntries: positiveInt().default(DEFAULT_MAX_ENTRIES),
    /** The shortest time between two wake-ups for workspace changes. */
    minWakeIntervalMs: nonNegativeInt().default(DEFAULT_MIN_WAKE_INTERVAL_MS),
    /** Wake-ups for workspace changes per hour at most (0: changes never wake it). */
    maxWakesPerHour: nonNegativeInt().default(DEFAULT_MAX_WAKES_PER_HOUR),
    /**
     * How long a question the agent asked on its own ([WAIT] in an autonomous turn) waits before
     * workspace changes wake a look again, the question staying open (0: never, it waits for
     * the user as before).
     */
    resumeAfterWaitMs: nonNegativeInt().default(DEFAULT_RESUME_AFTER_WAIT_MS),
  })
  .prefault({});

const quirksSchema = z
  .strictObject({
    /** Send earlier replies' reasoning back to the model (DeepSeek rejects it, so off). */
    sendReasoningInHistory: z.boolean().default(false),
  })
  .prefault({});

/** The change journal's limits: backups kept per session, and the largest file backed up. */
const undoSchema = z
  .strictObject({
    /** Backups kept per session (bytes); the oldest are evicted beyond it. */
    maxBytes: positiveInt().default(500 * 1024 * 1024),
    /** A file larger than this (bytes) cannot be backed up, so changing it needs approval. */
    maxFileBytes: positiveInt().default(50 * 1024 * 1024),
  })
  .prefault({});

/** The `run` tool: its time limit, output cap, sandbox and read-only commands (docs/SAFETY.md). */
const runSchema = z
  .strictObject({
    /** A command is stopped after this long (default 2 minutes). */
    timeoutMs: positiveInt().default(RUN_DEFAULTS.timeoutMs),
    /** Output kept at most (characters); past it the head and the tail are kept. */
    maxOutputChars: int().min(1_000).default(RUN_DEFAULTS.maxOutputChars),
    /**
     * `bubblewrap` (default): every command runs in the sandbox, and is refused when no
     * sandbox can start. `off`: commands run unsandboxed, each one asked about first.
     */
    sandbox: z.enum(['bubblewrap', 'off']).default('bubblewrap'),
    /** The bwrap program (default: `bwrap` on PATH). */
    bwrapPath: z.string().min(1).optional(),
    /** More read-only commands run without asking, e.g. "make -n" or "npm ls". */
    readOnlyCommands: z.array(z.string().min(1)).default([]),
    /**
     * Processes (threads included) a sandboxed command may have at once: a fork bomb stops
     * there. As root it is a pids cgroup's limit, where one can be made (docs/SAFETY.md).
     */
    maxProcesses: int().min(16).default(RUN_DEFAULTS.maxProcesses),
    /** Background commands (`background: true`) running at once, at most. */
    maxBackground: positiveInt().max(32).default(RUN_DEFAULTS.maxBackground),
    /** A background command is stopped after this long (default 30 minutes). */
    backgroundTimeoutMs: positiveInt().default(RUN_DEFAULTS.backgroundTimeoutMs),
    /**
     * Network for sandboxed commands: only `false` for now. Commands' traffic would not pass
     * the egress check the web tools use (docs/SAFETY.md), so it cannot be turned on.
     */
    network: z
      .boolean()
      .default(false)
      .refine((on) => !on, {
        message:
          'cannot be true: sandboxed commands have no network, because their traffic would not pass the egress check the web tools use (private and loopback addresses refused)',
        params: {
          fix: 'Remove "network" from "run" (use the fetch and search tools for the web), or set "run": { "sandbox": "off" } to run commands unsandboxed, each asked about first.',
        },
      }),
  })
  .prefault({});

/** Instruction files (docs/INSTRUCTIONS.md): the names read in each folder, and their budget. */
const instructionsSchema = z
  .strictObject({
    /** Per folder, the first of these that exists is its instruction file ([]: none is read). */
    files: z
      .array(
        z
          .string()
          .min(1)
          .refine((name) => !/[/\\]/.test(name) && name !== '.' && name !== '..', {
            message: 'must be a file name, not a path',
            params: { fix: 'Write plain names such as "AGENTS.md", "CLAUDE.md".' },
          }),
      )
      .default(['AGENTS.md', 'CLAUDE.md', 'GEMINI.md']),
    /** Bytes of instructions in the system prompt (nearest files first); the same again for subfolders. */
    maxBytes: positiveInt().default(32 * 1024),
  })
  .prefault({});

export const configSchema = z
  .strictObject({
    provider: z.enum(['openai-compatible', 'local']).default('openai-compatible'),
    baseURL: httpUrl().default('https://api.deepseek.com/v1'),
    apiKey: z.string().min(1).optional(),
    model: z.string().min(1).default('deepseek-chat'),
    /**
     * How the model is told to call tools: `text` (default) the `[TOOL]` protocol in the
     * system prompt; `native` the tools as JSON schemas (`tools`), called through the
     * server's function calling. Native calls a server sends are read in both modes.
     */
    toolCalls: z.enum(['text', 'native']).default('text'),
    // Local provider (node-llama-cpp).
    modelPath: z.string().min(1).optional(),
    contextSize: positiveInt().optional(),
    threads: positiveInt().optional(),
    gpu: z.enum(['auto', 'off']).optional(),
    /**
     * The folder the agent works in: only `--workspace` sets it (else the current folder). A
     * value in config.json, from earlier versions, is accepted, ignored and removed.
     */
    workspace: z.string().min(1).optional(),
    persona: z.string().min(1).default('assistant'),
    language: z.enum(['en', 'zh', 'auto']).default('auto'),
    thinkIntervalMs: nonNegativeInt().default(3_000),
    /** 0 = unlimited (the default: pacing and the daily budget keep it cheap). */
    maxAutonomousCycles: nonNegativeInt().default(0),
    /** 0 = no budget. */
    tokenBudgetPerHour: nonNegativeInt().default(0),
    /** 0 = no budget. Checked before each request, like the hourly one. */
    tokenBudgetPerDay: nonNegativeInt().default(DEFAULT_DAILY_BUDGET),
    pacing: pacingSchema,
    watch: watchSchema,
    contextWindow: positiveInt().optional(),
    compressAt: z.number().gt(0).lt(1).default(0.7),
    compressTurns: positiveInt().default(150),
    streamIdleTimeoutMs: positiveInt().default(DEFAULT_REQUEST_TIMEOUT_MS),
    requestTimeoutMs: positiveInt().default(DEFAULT_REQUEST_TIMEOUT_MS),
    backoff: backoffSchema,
    maxConsecutiveFailures: positiveInt().default(5),
    toolResultBudgetChars: positiveInt().default(8_000),
    /** Tool calls run per reply at most; the rest come back to the model as not run. */
    maxToolCallsPerReply: positiveInt().default(DEFAULT_MAX_CALLS_PER_REPLY),
    /** Requests one turn's tool chain may make; reaching it pauses with a notice. */
    maxStepsPerTurn: positiveInt().default(DEFAULT_MAX_STEPS_PER_TURN),
    /** How long the first request waits for MCP servers to connect or fail (0: not at all). */
    mcpConnectTimeoutMs: nonNegativeInt().default(10_000),
    approval: approvalSchema,
    search: searchSchema,
    fetch: fetchSchema,
    quirks: quirksSchema,
    durability: z.enum(['write', 'fsync']).default('write'),
    undo: undoSchema,
    run: runSchema,
    /** MCP servers whose tools the agent may call (see docs/MCP.md). */
    mcpServers: mcpServersSchema,
    /** The mouse wheel scrolls the pane under the pointer; false leaves the mouse to the terminal. */
    mouse: z.boolean().default(true),
    /** How long without a key before the next key opens the "while you were away" digest. */
    awayAfterMs: positiveInt().default(10 * 60_000),
    /** Notifications when the agent needs the user (docs/NOTIFY.md). */
    notify: notifySchema,
    instructions: instructionsSchema,
  })
  .refine((c) => c.provider !== 'local' || c.modelPath !== undefined, {
    path: ['modelPath'],
    message: 'is not set, but provider is "local" and needs a GGUF model file',
    params: {
      fix: 'Add "modelPath": "/path/to/model.gguf", or set "provider" to "openai-compatible".',
    },
  });

/** Validated settings with defaults applied. */
export type Config = z.output<typeof configSchema>;

/**
 * How calls are asked for: the local provider takes no tool schemas (node-llama-cpp renders
 * the prompt itself), so it always gets the `[TOOL]` protocol.
 */
export function toolCallsOf(config: Pick<Config, 'provider' | 'toolCalls'>): 'text' | 'native' {
  return config.provider === 'local' ? 'text' : config.toolCalls;
}

/** What may be written in `config.json` (everything optional). */
export type ConfigInput = z.input<typeof configSchema>;

/** The settings with nothing set: every default. */
export function defaultConfig(): Config {
  return configSchema.parse({});
}

/** A field that holds a secret: its value is never shown, logged or echoed in errors. */
export const SECRET_FIELDS: ReadonlySet<string> = new Set([
  'apiKey',
  'search.tavilyKey',
  'search.braveKey',
]);
