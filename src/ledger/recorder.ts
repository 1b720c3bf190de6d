import type { AgentEvent } from '../api/events.js';
import { shownText } from '../protocol/replyParts.js';
import type { ToolArg, ToolKind } from '../tools/types.js';
import { SKILL_RUN_HEADER } from './skillRun.js';
import type { CycleEnd, CycleRecord } from '../api/ledger.js';

/** The reply kept per record: enough for the digest, small enough for the file. */
const REPLY_CHARS = 400;

/** Tools that take (from, to): both paths changed for a move, only `to` for a copy. */
const TWO_PATHS: Readonly<Record<string, (args: readonly ToolArg[]) => ToolArg[]>> = {
  move: (a) => [a[0] ?? null, a[1] ?? null],
  copy: (a) => [a[1] ?? null],
};

/** The workspace paths a successful write-kind call changed. */
export function changedPaths(name: string, args: readonly ToolArg[]): string[] {
  const picked = TWO_PATHS[name]?.(args) ?? [args[0] ?? null];
  return picked.filter((a): a is string => typeof a === 'string' && a !== '');
}

interface Open {
  record: CycleRecord;
  started: number;
}

/**
 * Builds one ledger record per turn from the agent's own events (nothing in the agent has
 * to know about the ledger): the reason from `turn_start`, tokens from `usage`, tools and
 * changed files from `tool_end`, the shown reply, a pause during the turn, and the end.
 */
export class CycleRecorder {
  private open: Open | undefined;

  constructor(
    private readonly deps: {
      /** The tools by name (the registry): a write's changed paths are kept. */
      tools: { get(name: string): { readonly kind: ToolKind } | undefined };
      /** The clock (the agent's timers). */
      clock: { now(): number };
      /** Where the finished record goes (the session's ledger, the store). */
      write(record: CycleRecord): void;
    },
  ) {}

  /** Feed it every agent event. */
  readonly listener = (e: AgentEvent): void => {
    switch (e.type) {
      case 'turn_start':
        this.open = {
          started: this.deps.clock.now(),
          record: {
            turnId: e.turnId,
            at: this.deps.clock.now(),
            reason: e.trigger,
            durationMs: 0,
            tokensIn: 0,
            tokensCached: 0,
            tokensOut: 0,
            tools: [],
            files: [],
            end: 'continued',
          },
        };
        return;
      case 'usage':
        if (this.open?.record.turnId !== e.turnId) return;
        this.open.record.tokensIn += e.usage.promptTokens;
        this.open.record.tokensCached += e.usage.cachedPromptTokens ?? 0;
        this.open.record.tokensOut += e.usage.completionTokens;
        return;
      case 'tool_end':
        this.toolEnded(e.entry.turnId, e.entry.name, e.entry.args, e.entry.call, e.entry.status);
        return;
      case 'message_added':
        // A skill run as a command (`/name args`): its turn's user message names it.
        if (this.open && e.message.role === 'user') {
          const skill = SKILL_RUN_HEADER.exec(e.message.content)?.[1];
          if (skill) (this.open.record.skills ??= []).push(skill);
        }
        // The reply as shown (without calls and [WAIT]), from the parts the turn read.
        if (this.open && e.message.role === 'assistant' && e.message.parts) {
          const shown = shownText(e.message.parts).slice(0, REPLY_CHARS);
          if (shown) this.open.record.reply = shown;
        }
        return;
      case 'state_changed':
        if (this.open && e.event === 'AUTO_PAUSE' && e.reason) {
          this.open.record.pauseReason = e.reason;
          this.open.record.end = 'paused';
        }
        return;
      case 'turn_end':
        this.close(e.turnId, e.outcome, e.wait);
        return;
      default:
        return;
    }
  };

  private toolEnded(
    turnId: number,
    name: string,
    args: readonly ToolArg[],
    call: string,
    status: string,
  ): void {
    const r = this.open?.record;
    if (r?.turnId !== turnId) return;
    r.tools.push(call);
    const kind = this.deps.tools.get(name)?.kind;
    if (status === 'ok' && (kind === 'write' || kind === 'destructive')) {
      for (const p of changedPaths(name, args)) if (!r.files.includes(p)) r.files.push(p);
    }
  }

  private close(turnId: number, outcome: string, wait: boolean): void {
    const open = this.open;
    if (open?.record.turnId !== turnId) return;
    this.open = undefined;
    const r = open.record;
    r.durationMs = Math.max(0, this.deps.clock.now() - open.started);
    const ended: CycleEnd | undefined =
      outcome === 'aborted'
        ? 'interrupted'
        : outcome === 'error'
          ? 'failed'
          : outcome === 'command'
            ? 'command'
            : undefined;
    if (ended) r.end = ended;
    else if (r.end !== 'paused' && wait) r.end = 'waited';
    this.deps.write(r);
  }
}
