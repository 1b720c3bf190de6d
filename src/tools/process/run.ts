/**
 * `run(command, cwd?)`: one command line, run by `/bin/sh -c` inside the OS sandbox
 * (`sandbox.ts`) in the workspace or a folder inside it. Its output (stdout and stderr as
 * they came, capped head and tail, terminal controls removed) and exit code are the result.
 * stdin is closed; the time limit and the turn's abort kill the whole sandbox, so nothing the
 * command started is left behind. Read-only commands (`readOnly.ts`) run without asking;
 * every other one asks, showing the whole command, where it runs and whether it is sandboxed.
 * `background: true` starts it in `background.ts`'s set and returns its id at once; as root,
 * the process limit is a pids cgroup's (`pidsCgroup.ts`).
 */
import type { ChildProcess } from 'node:child_process';
import type { Options } from 'execa';
import { INFO_FD, SandboxKiller } from './sandboxKill.js';
import { fail, ok } from '../types.js';
import type { Tool, ToolApprovalPolicy, ToolArg, ToolContext, ToolResult } from '../types.js';
import { CappedOutput } from './output.js';
import { DEFAULT_READ_ONLY_COMMANDS, isReadOnlyCommand } from './readOnly.js';
import type { BackgroundCommands } from './background.js';
import { withPidsLimit, type Limited } from './pidsCgroup.js';
import {
  DEFAULT_MAX_PROCESSES,
  bwrapArgs,
  checkSandbox,
  shellArgs,
  type SandboxCheck,
} from './sandbox.js';

/** The `run` settings (config.json's `run`). */
export interface RunSettings {
  timeoutMs: number;
  maxOutputChars: number;
  sandbox: 'bubblewrap' | 'off';
  bwrapPath?: string;
  readOnlyCommands: readonly string[];
  /** Background commands running at once, at most. */
  maxBackground: number;
  /** A background command is stopped after this long. */
  backgroundTimeoutMs: number;
  /** Processes (threads included) a sandboxed command may have at once (default 1024). */
  maxProcesses?: number;
}

export interface RunToolDeps {
  settings: RunSettings;
  /** Folders no command may see (Cogito's home: its config holds the API key). */
  hidden: readonly string[];
  /** The user's home, hidden from the commands run without asking. */
  userHome?: string;
  /** Where background commands run (absent: `background: true` is refused). */
  background?: BackgroundCommands;
}

/** How one command ended. */
interface Ended {
  exitCode?: number;
  signal?: string;
  how: 'exited' | 'timeout' | 'aborted' | 'spawn_failed';
  output: string;
  spawnError?: string;
}

export const RUN_TOOL_NAME = 'run';

/** The read-only commands in force: the built-in ones and the user's. */
export function readOnlyList(settings: RunSettings): readonly string[] {
  return [...DEFAULT_READ_ONLY_COMMANDS, ...settings.readOnlyCommands];
}

/** True when the call's command only reads (it runs unasked, workspace read-only). */
export function isReadOnlyCall(args: readonly ToolArg[], settings: RunSettings): boolean {
  return typeof args[0] === 'string' && isReadOnlyCommand(args[0], readOnlyList(settings));
}

export function createRunTool(deps: RunToolDeps): Tool {
  const { settings } = deps;
  // The kind's policy as the approval step last gave it: `ask` is narrowed here to the
  // commands that are not read-only, `auto` asks nothing (but an unsandboxed command).
  let kindPolicy: ToolApprovalPolicy = 'ask';
  const sandbox = (): Promise<SandboxCheck> | undefined =>
    settings.sandbox === 'off' ? undefined : checkSandbox(settings.bwrapPath);
  return {
    name: RUN_TOOL_NAME,
    description: `Runs one shell command line (/bin/sh -c) in the workspace or a folder inside it, inside a sandbox: the workspace is writable, the rest of the disk read-only, .git read-only, no network, a private /tmp. Stopped after ${Math.round(settings.timeoutMs / 1000)} s; stdin is closed; the result holds the exit code and the output (long output keeps its start and end). With background: true (a server, a watcher) it returns an id at once: read its new output with run_output(id), stop it with run_stop(id); at most ${settings.maxBackground} at once, each stopped after ${Math.round(settings.backgroundTimeoutMs / 60_000)} min.`,
    kind: 'process',
    params: [
      { name: 'command', type: 'string', description: 'the command line, e.g. "npm test"' },
      {
        name: 'cwd',
        type: 'string',
        optional: true,
        description: 'a folder inside the workspace to run it in (default: the workspace)',
      },
      {
        name: 'background',
        type: 'boolean',
        optional: true,
        description:
          'true: start it and return an id at once (read with run_output, stop with run_stop)',
      },
    ],
    approvalPolicy(policy) {
      kindPolicy = policy;
      return { policy: policy === 'ask' ? 'auto' : policy };
    },
    async needsApproval(args, ctx) {
      const command = String(args[0]);
      const where = await folderOf(args[1], ctx);
      const check = await sandbox();
      // Refused at run time with the fix: asking first would only delay that.
      if (check !== undefined && !check.ok) return undefined;
      if (typeof where !== 'string') return undefined;
      const bg = args[2] === true ? '\nin the background (not covered by /undo)' : '';
      const detail = `$ ${command}\ncwd: ${where}${bg}\nsandbox: ${check === undefined ? 'OFF: the command can change anything your user can, and reach the network' : 'on (workspace writable, .git read-only, no network)'}`;
      if (check === undefined) {
        return { reason: 'runs a command without a sandbox', detail, everyTime: true };
      }
      if (kindPolicy === 'auto' || isReadOnlyCall(args, settings)) return undefined;
      return { reason: 'runs a command', detail };
    },
    async run(args, ctx) {
      const command = args[0];
      if (typeof command !== 'string' || command.trim() === '') {
        return fail('invalid_args', 'run needs a command line, e.g. run("npm test").');
      }
      const cwd = await folderOf(args[1], ctx);
      if (typeof cwd !== 'string') return cwd;
      const check = await sandbox();
      if (check !== undefined && !check.ok) {
        return fail(
          'unsupported',
          `run is refused: ${check.reason}. Fix: ${check.fix}`,
          check.outside || undefined,
        );
      }
      const readOnly = isReadOnlyCall(args, settings);
      const argv =
        check === undefined
          ? ['/bin/sh', '-c', command]
          : [
              check.bwrap,
              ...bwrapArgs({
                workspace: ctx.workspace.root,
                cwd,
                readOnly,
                // A command run unasked sees neither Cogito's home nor the user's.
                hidden: readOnly && deps.userHome ? [...deps.hidden, deps.userHome] : deps.hidden,
                infoFd: INFO_FD,
              }),
              ...shellArgs(command, settings.maxProcesses),
            ];
      // As root, `ulimit -u` is not applied: a pids cgroup of its own holds the limit.
      const limited =
        check === undefined
          ? { argv, release: () => Promise.resolve() }
          : withPidsLimit(argv, settings.maxProcesses ?? DEFAULT_MAX_PROCESSES);
      if (args[2] === true)
        return startInBackground(deps.background, limited, cwd, command, settings, !!check);
      let ended: Ended;
      try {
        ended = await execute(limited.argv, cwd, settings, ctx.signal, check !== undefined);
      } finally {
        await limited.release();
      }
      return report(command, ended, settings, check !== undefined);
    },
  };
}

/** Starts the command in the background: its id and how to read and stop it. */
function startInBackground(
  background: BackgroundCommands | undefined,
  limited: Limited,
  cwd: string,
  command: string,
  settings: RunSettings,
  sandboxed: boolean,
): ToolResult {
  if (background === undefined) {
    void limited.release();
    return fail(
      'unsupported',
      'run: background commands are not available here; run it without background.',
    );
  }
  const started = background.start(limited.argv, cwd, command, limited.release, sandboxed);
  if ('refused' in started) {
    void limited.release();
    return fail('denied', `run: "${command}" was not started: ${started.refused}.`);
  }
  const limit = Math.round(settings.backgroundTimeoutMs / 60_000);
  return ok(
    `$ ${command}\n[started in the background as ${started.id}; stopped after ${limit} min (run.backgroundTimeoutMs) or when the agent stops]\nRead its new output with run_output("${started.id}"), stop it with run_stop("${started.id}"). What it changes in the workspace is not covered by /undo.`,
    `background ${started.id}`,
  );
}

/** The folder `arg` names inside the workspace (default its root), or the failure to report. */
async function folderOf(arg: ToolArg | undefined, ctx: ToolContext): Promise<string | ToolResult> {
  const input = typeof arg === 'string' && arg !== '' ? arg : '.';
  const r = await ctx.workspace.resolve(input, { access: 'read' });
  if (!r.ok) return { ok: false, error: r.error };
  const { stat } = await import('node:fs/promises');
  const st = await stat(r.path.abs).catch(() => undefined);
  if (!st?.isDirectory())
    return fail('not_found', `run: cwd "${input}" is not a folder in the workspace.`);
  return r.path.abs;
}

/** Runs `argv` as its own process group; the limit and the abort kill the whole group. */
async function execute(
  argv: readonly string[],
  cwd: string,
  settings: RunSettings,
  signal: AbortSignal,
  sandboxed: boolean,
): Promise<Ended> {
  const output = new CappedOutput(settings.maxOutputChars);
  if (signal.aborted) return { how: 'aborted', output: '' };
  const { execa } = await import('execa');
  const options: Options = {
    cwd,
    // stdin closed; fd 3 is bwrap's info (the namespace's first pid, for the kill).
    stdio: ['ignore', 'pipe', 'pipe', sandboxed ? 'pipe' : 'ignore'],
    buffer: false,
    detached: true,
    reject: false,
    windowsHide: true,
  };
  const child = execa(argv[0]!, argv.slice(1), options);
  const onData = (d: Buffer | string): void => output.push(String(d));
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  let how: Ended['how'] = 'exited';
  const killer = new SandboxKiller(child as unknown as ChildProcess, sandboxed);
  const killGroup = (why: Ended['how']): void => {
    if (how === 'exited') how = why;
    // The group is bwrap's (or the shell's), and the namespace's first process with it: its
    // end takes everything the command started, even what left the group.
    killer.kill();
  };
  const timer = setTimeout(() => killGroup('timeout'), settings.timeoutMs);
  const onAbort = (): void => killGroup('aborted');
  signal.addEventListener('abort', onAbort, { once: true });
  // An abort while execa was loading fired before the listener existed: act on it now, or
  // the command would run to its time limit after the turn had been interrupted.
  if (signal.aborted) onAbort();
  try {
    const r = await child;
    if (r.exitCode === undefined && r.signal === undefined && how === 'exited') {
      return { how: 'spawn_failed', output: '', spawnError: r.shortMessage ?? r.message };
    }
    return {
      how,
      output: output.text(),
      ...(r.exitCode !== undefined ? { exitCode: r.exitCode } : {}),
      ...(r.signal !== undefined ? { signal: r.signal } : {}),
    };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

function report(command: string, e: Ended, settings: RunSettings, sandboxed: boolean): ToolResult {
  const shown = e.output === '' ? '(no output)' : e.output;
  if (e.how === 'spawn_failed') {
    return fail('io', `run could not start the command: ${e.spawnError ?? 'unknown error'}.`);
  }
  if (e.how === 'aborted') {
    return fail(
      'aborted',
      `run: stopped "${command}" (the turn was interrupted); its processes were killed.\nOutput so far:\n${shown}`,
    );
  }
  if (e.how === 'timeout') {
    return fail(
      'timeout',
      `run: "${command}" did not finish within ${settings.timeoutMs / 1000} s (run.timeoutMs) and was killed with everything it started.\nOutput so far:\n${shown}`,
    );
  }
  const status = e.exitCode !== undefined ? `exit code ${e.exitCode}` : `killed by ${e.signal}`;
  const box = sandboxed ? 'sandboxed' : 'NOT sandboxed';
  return ok(`$ ${command}\n[${status}; ${box}]\n${shown}`, `${status}`);
}
