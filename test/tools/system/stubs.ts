import type {
  CommandRunner,
  LaunchOptions,
  RunOptions,
  RunResult,
} from '../../../src/tools/system/exec.js';
import type { KillFn } from '../../../src/tools/system/types.js';

export interface RecordedCall {
  kind: 'run' | 'launch';
  file: string;
  args: readonly string[];
  env?: Record<string, string>;
}

/**
 * A CommandRunner that runs nothing: it records each call and answers `run` from a table
 * of canned outputs keyed by program name.
 */
export class StubRunner implements CommandRunner {
  readonly calls: RecordedCall[] = [];

  constructor(private readonly outputs: Record<string, Partial<RunResult>> = {}) {}

  async run(file: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
    this.calls.push({
      kind: 'run',
      file,
      args: [...args],
      ...(options.env ? { env: options.env } : {}),
    });
    const output = this.outputs[file] ?? {};
    return {
      stdout: output.stdout ?? '',
      stderr: output.stderr ?? '',
      exitCode: output.exitCode ?? 0,
    };
  }

  async launch(file: string, args: readonly string[], options: LaunchOptions): Promise<void> {
    this.calls.push({
      kind: 'launch',
      file,
      args: [...args],
      ...(options.env ? { env: options.env } : {}),
    });
  }
}

/** A kill function that records instead of signalling; `fail` maps a pid to an errno code. */
export function recordingKill(
  fail: Record<number, string> = {},
): KillFn & { calls: [number, string][] } {
  const calls: [number, string][] = [];
  const kill = ((pid: number, signal: NodeJS.Signals) => {
    const code = fail[pid];
    if (code !== undefined) throw Object.assign(new Error(code), { code });
    calls.push([pid, signal]);
  }) as KillFn & { calls: [number, string][] };
  kill.calls = calls;
  return kill;
}

/** Hostile names: each would create `marker` if any shell ever saw it. */
export function hostileNames(marker: string): string[] {
  return [
    `"; touch ${marker}; "`,
    `$(touch ${marker})`,
    `\`touch ${marker}\``,
    `firefox & touch ${marker}`,
    `firefox; touch ${marker}`,
    `notepad.exe" & echo pwned > "${marker}`,
  ];
}
