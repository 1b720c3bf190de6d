/**
 * `run_output(id)` and `run_stop(id)`: the model's hold on the commands `run` started in
 * the background. Reading and stopping change nothing the command did not already do, so
 * neither asks (their kind is `process`, their policy `auto` unless the kind is `deny`).
 */
import { fail, ok } from '../types.js';
import type { Tool, ToolResult } from '../types.js';
import type { BackgroundCommands, BackgroundRead } from './background.js';

const idParam = {
  name: 'id',
  type: 'string' as const,
  description: 'the id run gave when it started the command, e.g. "bg1"',
};

export function createBackgroundTools(background: BackgroundCommands): Tool[] {
  const unknown = (id: string): ToolResult =>
    fail('not_found', `No background command "${id}". Known: ${background.list()}.`);
  const policy = (kind: 'auto' | 'ask' | 'deny'): { policy: 'auto' | 'deny' } => ({
    policy: kind === 'deny' ? 'deny' : 'auto',
  });
  return [
    {
      name: 'run_output',
      description:
        'The output a background command (run with background: true) printed since the last read, and whether it is still running.',
      kind: 'process',
      params: [idParam],
      approvalPolicy: policy,
      run(args) {
        const id = String(args[0]);
        const r = background.read(id);
        return Promise.resolve(r === undefined ? unknown(id) : ok(describe(r), r.state));
      },
    },
    {
      name: 'run_stop',
      description:
        'Stops a background command (run with background: true) and everything it started; returns its last output.',
      kind: 'process',
      params: [idParam],
      approvalPolicy: policy,
      async run(args) {
        const id = String(args[0]);
        if (!(await background.stop(id))) return unknown(id);
        const r = background.read(id)!;
        return ok(describe(r), r.state);
      },
    },
  ];
}

function describe(r: BackgroundRead): string {
  const secs = Math.round(r.ageMs / 1000);
  const state =
    r.state === 'running'
      ? `running for ${secs} s`
      : r.state === 'exited'
        ? r.exitCode !== undefined
          ? `exited with code ${r.exitCode}`
          : `killed by ${r.signal ?? 'a signal'}`
        : r.state === 'timeout'
          ? 'killed at its time limit (run.backgroundTimeoutMs) with everything it started'
          : 'stopped, with everything it started';
  const out = r.output === '' ? '(no new output)' : r.output;
  return `${r.id}: $ ${r.command}\n[${state}]\n${out}`;
}
