import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Agent } from '../agent/agent.js';
import type { AgentEvent } from '../api/events.js';
import { appPaths } from '../config/paths.js';

/**
 * `--debug`: one JSON line per notable event under `<home>/data/logs/`: requests' metadata,
 * timings, state changes and errors. Never message contents or the key: only what helps
 * find out why something was slow or failed. Throws when the folder cannot be made; the
 * returned `detach` stops the logging (the app's disposer stack calls it on close).
 */
export function attachDebugLog(
  agent: Agent,
  home: string,
  now: () => Date = () => new Date(),
): { file: string; detach(): void } {
  const dir = appPaths(home).logs;
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `debug-${now().toISOString().slice(0, 10)}.log`);
  const write = (record: Record<string, unknown>): void => {
    try {
      appendFileSync(file, `${JSON.stringify({ at: now().toISOString(), ...record })}\n`, {
        mode: 0o600,
      });
    } catch {
      // A debug log must never break the agent.
    }
  };
  // The model in use: the agent's snapshot, then each /model switch its events report.
  let model = agent.snapshot().model;
  write({ type: 'debug_start', pid: process.pid, node: process.version, model });
  const detach = agent.subscribe((e: AgentEvent) => {
    switch (e.type) {
      case 'settings_changed':
        if (e.model !== undefined) model = e.model;
        break;
      case 'state_changed':
        write({ type: e.type, from: e.from, to: e.to, event: e.event, reason: e.reason });
        break;
      case 'turn_start':
        write({ type: e.type, turnId: e.turnId, trigger: e.trigger, cycle: e.cycle });
        break;
      case 'request_start':
        write({
          type: e.type,
          turnId: e.turnId,
          promptTokens: e.promptTokens,
          model,
        });
        break;
      case 'usage':
        write({ type: e.type, turnId: e.turnId, ...e.usage, estimated: e.estimated });
        break;
      case 'tool_end':
        write({
          type: e.type,
          tool: e.entry.name,
          status: e.entry.status,
          errorKind: e.entry.errorKind,
          durationMs: e.entry.durationMs,
        });
        break;
      case 'turn_end':
        write({
          type: e.type,
          turnId: e.turnId,
          outcome: e.outcome,
          durationMs: e.trace.durationMs,
          phases: e.trace.phases,
        });
        break;
      case 'error':
        write({ type: e.type, turnId: e.turnId, kind: e.error.kind, message: e.error.message });
        break;
      case 'retrying':
        write({
          type: e.type,
          turnId: e.turnId,
          attempt: e.attempt,
          delayMs: e.delayMs,
          kind: e.error.kind,
          message: e.error.message,
        });
        break;
      default:
        break;
    }
  });
  return { file, detach };
}
