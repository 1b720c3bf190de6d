import type { CallItem } from '../protocol/parser.js';
import { SessionSafety } from '../tools/sessionSafety.js';
import { truncateForModel } from '../protocol/format.js';
import { callTextOf, oneLine, resultHeadOf } from '../protocol/callText.js';
import { readAsNote, resolveCall } from '../protocol/resolve.js';
import { callIdOf } from '../protocol/replyParts.js';
import type { ToolRegistry } from '../tools/registry.js';
import type {
  ApprovalNeed,
  Tool,
  ToolApprovalPolicy,
  ToolArg,
  ToolContext,
  ToolKind,
  ToolResult,
} from '../tools/types.js';
import type { AgentEvent, ApprovalAnswer, ApprovalRequest, ToolLogEntry } from '../api/events.js';
import { t, type Lang } from '../i18n/messages.js';
import { DEFAULT_MAX_CALLS_PER_REPLY } from '../config/schema.js';
import type { ShownResult } from '../core/messages.js';

export type ApprovalPolicy = ToolApprovalPolicy;

export interface ToolRunnerDeps {
  registry: ToolRegistry;
  emit(event: AgentEvent): void;
  policy(kind: ToolKind): ApprovalPolicy;
  /** The user's language: the approval prompt's reason is written in it (default English). */
  lang?: Lang;
  /** Asks the user; resolves 'no' if the turn is aborted while waiting. */
  askApproval(request: Omit<ApprovalRequest, 'id'>, signal: AbortSignal): Promise<ApprovalAnswer>;
  /** Tool names the user allowed for the rest of the run. */
  alwaysAllowed: Set<string>;
  /** Tool kinds the run's `--approve` allowed, as if answered "always" for each of their tools. */
  approvedKinds?: readonly ToolKind[];
  resultBudgetChars: number;
  /** Strings (API keys) removed from every result before anyone sees it. */
  secrets?: readonly string[];
  /** Told around each write-kind call, so the workspace watcher ignores the agent's own writes. */
  ownWrites?: { touching(args: readonly ToolArg[], done: boolean): void };
  /**
   * The session's redactor, read index and data boundary. When absent one is built from
   * `secrets` for this reply alone (so nothing is remembered between replies).
   */
  safety?: SessionSafety;
  /** Calls run per reply at most (config `maxToolCallsPerReply`, default 25). */
  maxCallsPerReply?: number | undefined;
  /**
   * Whether the user has steered (sent a message to read at the next tool boundary): the
   * calls not yet started then come back deferred, and the turn reads the message.
   */
  steered?(): boolean;
  /**
   * Told as each call finishes, before the next starts (the crash record saves it). `through`
   * is the last call index the outcome covers (the one result for calls past the cap).
   */
  onOutcome?(index: number, outcome: CallOutcome, through?: number): void;
}

/** The tool log keeps at most this much of a result; the model sees a smaller cut anyway. */
const LOG_RESULT_CAP = 64 * 1024;

/** One call's outcome as the model will see it. */
export interface CallOutcome {
  call: string;
  ok: boolean;
  body: string;
  truncatedChars: number;
  /** How the tool log showed it (saved with the result, so a restart shows the same). */
  shown?: ShownResult;
}

/** What a call the user's steering kept from starting answers (the user's message follows). */
export const DEFERRED_BODY =
  'deferred by the user: not run. The user sent a message while you worked (it follows); ' +
  'read it first, then run this call again only if it is still needed.';
/** The tool log's line for such a call. */
export const DEFERRED_SUMMARY = 'deferred by the user';

/** The result in Cogito's words: the data, or the error's kind and message. */
function resultText(result: ToolResult): string {
  if (!result.ok) return `${result.error.kind}: ${result.error.message}`;
  return typeof result.data === 'string' ? result.data : JSON.stringify(result.data, null, 2);
}

/** What a failure quotes from outside (shown to the model as data), if anything. */
function outsideText(result: ToolResult): string | undefined {
  return result.ok ? undefined : result.error.outside;
}

/**
 * Runs a reply's calls in order through approval and the registry. A call not yet started
 * when the turn's signal aborts never runs (SAVE gives it its "not run" result); every call
 * that runs, good or malformed, produces exactly one outcome, and the calls past the cap
 * share one, so nothing the model wrote is silently dropped.
 */
export async function runToolCalls(
  items: readonly CallItem[],
  ctx: ToolContext,
  /** The turn, and the saved reply whose calls these are: call `index` is `<replyId>#<index>`. */
  of: { turnId: number; replyId: string },
  deps: ToolRunnerDeps,
  /** `[TOOL]` tags the parser counted past the cap without parsing them. */
  unparsed = 0,
): Promise<CallOutcome[]> {
  const outcomes: CallOutcome[] = [];
  const safety = deps.safety ?? new SessionSafety(deps.secrets ?? []);
  const redact = (text: string): string => safety.redactor.redact(text);
  const sharedCtx: ToolContext = { ...ctx, redact, lang: deps.lang ?? ctx.lang ?? 'en' };
  const { run: parsed, notRun } = capCalls(items, deps.maxCallsPerReply, unparsed);
  // Named and bare-word arguments take their places from the tool's parameters.
  const run = parsed.map((item) => resolveCall(item, deps.registry.get(item.name ?? '')));
  for (const [index, item] of run.entries()) {
    // Let a keypress or a signal be handled between any two calls, however fast they are.
    if (index > 0) await yieldToEventLoop();
    if (ctx.signal.aborted) break;
    if (deps.steered?.()) {
      outcomes.push(...deferRest(run, index, of, deps, redact));
      break;
    }
    const toolCtx: ToolContext = ctx.change
      ? { ...sharedCtx, change: { ...ctx.change, callIndex: index } }
      : sharedCtx;
    const callText = redact(callTextOf(item));
    const entry: ToolLogEntry = {
      callId: callIdOf(of.replyId, index),
      turnId: of.turnId,
      name: item.name ?? '?',
      args: item.type === 'call' ? item.args : [],
      call: callText,
      status: 'running',
      startedAt: Date.now(),
    };
    deps.emit({ type: 'tool_start', entry });
    const started = performance.now();

    const { result, status } = await execute(item, callText, toolCtx, deps, safety);

    // Redacted before anything is cut, so a cut cannot leave a piece of a key.
    const own = redact(resultText(result));
    const quoted = outsideText(result);
    const outside = quoted === undefined ? undefined : redact(quoted);
    const full = outside === undefined ? own : `${own}\n${outside}`;
    const tool = item.type === 'call' ? deps.registry.get(item.name) : undefined;
    if (result.ok) safety.observe(tool, callText, full);
    const { text, cutChars } = truncateForModel(own, deps.resultBudgetChars);
    const cutOutside =
      outside === undefined ? undefined : truncateForModel(outside, deps.resultBudgetChars);
    const note = readAsNote(item);
    const untrusted = result.ok && result.untrusted === true;
    const forModel = safety.forModel(tool, result.ok, text, cutOutside?.text, untrusted);
    const told =
      note === undefined
        ? forModel
        : `${note}
${forModel}`;
    // A subfolder's instruction file goes after the result, the user's words (src/instructions).
    const body =
      result.ok && result.instructions ? `${told}\n\n${redact(result.instructions)}` : told;
    const truncatedChars = cutChars + (cutOutside?.cutChars ?? 0);
    const done = finished(entry, status, result, full, started);
    const call = resultHeadOf(item, redact);
    const outcome = { call, ok: result.ok, body, truncatedChars, shown: shownOf(done) };
    outcomes.push(outcome);
    deps.onOutcome?.(index, outcome);
    deps.emit({ type: 'tool_end', entry: done });
  }
  if (notRun !== undefined && !ctx.signal.aborted) {
    // The tool log shows the calls past the cap as one skipped line, as a restart does.
    const entry = skippedEntry(callIdOf(of.replyId, run.length), of.turnId, notRun.call, []);
    const shown = { ...notRun, shown: shownOf({ ...entry, summary: oneLine(notRun.body) }) };
    outcomes.push(shown);
    deps.onOutcome?.(run.length, shown, items.length - 1);
    deps.emit({ type: 'tool_end', entry: { ...entry, summary: oneLine(notRun.body) } });
  }
  return outcomes;
}

/**
 * The user steered: the calls from `from` on never start. Each comes back "deferred by the
 * user" (saved like any result, and shown in the tool log as skipped), so the model knows
 * what did not run and why, and nothing that did run is lost.
 */
function deferRest(
  run: readonly CallItem[],
  from: number,
  of: { turnId: number; replyId: string },
  deps: ToolRunnerDeps,
  redact: (text: string) => string,
): CallOutcome[] {
  const out: CallOutcome[] = [];
  for (let index = from; index < run.length; index++) {
    const item = run[index]!;
    const args = item.type === 'call' ? item.args : [];
    const callId = callIdOf(of.replyId, index);
    const entry = {
      ...skippedEntry(callId, of.turnId, redact(callTextOf(item)), args, item.name),
      summary: DEFERRED_SUMMARY,
      full: DEFERRED_BODY,
    };
    const outcome: CallOutcome = {
      call: resultHeadOf(item, redact),
      ok: false,
      body: DEFERRED_BODY,
      truncatedChars: 0,
      shown: shownOf(entry),
    };
    out.push(outcome);
    deps.onOutcome?.(index, outcome);
    deps.emit({ type: 'tool_end', entry });
  }
  return out;
}

/** The tool-log entry of a call that never ran. */
export function skippedEntry(
  callId: string,
  turnId: number,
  call: string,
  args: readonly ToolArg[],
  name?: string,
): ToolLogEntry {
  const named = name ?? call.slice(0, Math.max(0, call.indexOf('(')));
  const base = { callId, turnId, name: named || call, args, call };
  return { ...base, status: 'skipped', durationMs: 0, startedAt: Date.now() };
}

/** What a finished entry's line needs kept, for a restart to show the same. */
export function shownOf(e: ToolLogEntry): ShownResult {
  return {
    status: e.status === 'running' ? 'skipped' : e.status,
    args: e.args,
    ...(e.summary !== undefined ? { summary: e.summary } : {}),
    ...(e.durationMs !== undefined ? { durationMs: e.durationMs } : {}),
    ...(e.errorKind !== undefined ? { errorKind: e.errorKind } : {}),
    ...(e.undo !== undefined ? { undo: e.undo } : {}),
  };
}

/** One call through approval and the registry: its result and how the tool log shows it. */
async function execute(
  item: CallItem,
  callText: string,
  ctx: ToolContext,
  deps: ToolRunnerDeps,
  safety: SessionSafety,
): Promise<{ result: ToolResult; status: ToolLogEntry['status'] }> {
  if (item.type === 'malformed') {
    return {
      result: { ok: false, error: { kind: 'invalid_args', message: item.error } },
      status: 'error',
    };
  }
  const decision = await decide(item.name, item.args, callText, ctx, deps, safety);
  if (!decision.allow) {
    return {
      result: { ok: false, error: { kind: 'denied', message: decision.reason } },
      status: 'denied',
    };
  }
  if (ctx.signal.aborted) {
    const message = 'the turn was interrupted before this call ran';
    return { result: { ok: false, error: { kind: 'aborted', message } }, status: 'skipped' };
  }
  const own = isWrite(deps.registry.get(item.name)?.kind) ? deps.ownWrites : undefined;
  own?.touching(item.args, false);
  const result = (await deps.registry.run(item.name, item.args, ctx)).result;
  own?.touching(item.args, true);
  return { result, status: result.ok ? 'ok' : 'error' };
}

/** The tool-log entry of a finished call: a one-line summary and the (capped) full result. */
function finished(
  entry: ToolLogEntry,
  status: ToolLogEntry['status'],
  result: ToolResult,
  full: string,
  started: number,
): ToolLogEntry {
  return {
    ...entry,
    status,
    summary: result.ok ? (result.display ?? oneLine(full)) : oneLine(full),
    full: capped(full),
    ...(result.ok ? {} : { errorKind: result.error.kind }),
    ...(result.ok && result.undo !== undefined ? { undo: result.undo } : {}),
    ...(result.ok && result.diff !== undefined ? { diff: capped(result.diff) } : {}),
    durationMs: Math.round(performance.now() - started),
  };
}

/** Text kept in the log, cut at LOG_RESULT_CAP with a note saying how much was left out. */
function capped(text: string): string {
  return text.length > LOG_RESULT_CAP
    ? `${text.slice(0, LOG_RESULT_CAP)}\n[… ${text.length - LOG_RESULT_CAP} more characters not kept in the log]`
    : text;
}

function isWrite(kind: ToolKind | undefined): boolean {
  return kind === 'write' || kind === 'destructive';
}

async function decide(
  name: string,
  args: readonly ToolArg[],
  call: string,
  ctx: ToolContext,
  deps: ToolRunnerDeps,
  safety: SessionSafety,
): Promise<{ allow: true } | { allow: false; reason: string }> {
  const tool = deps.registry.get(name);
  // Unknown tools and bad arity are reported by the registry itself when run.
  if (!tool || deps.registry.validate(name, args)) return { allow: true };
  const kindPolicy = deps.policy(tool.kind);
  // A tool may set its own policy (per MCP server or tool); its reason then says why.
  const own = tool.approvalPolicy?.(kindPolicy);
  const policy = own?.policy ?? kindPolicy;
  if (policy === 'deny') {
    return {
      allow: false,
      reason:
        own?.reason ??
        `${tool.kind} tools are denied by the approval policy (approval.${tool.kind} = "deny"); do not retry this call`,
    };
  }
  const lang = deps.lang ?? 'en';
  const need = await toolNeed(tool, args, ctx);
  // The deny reason above goes to the model (English); the card's is in the screen's language.
  const ownShown = own === undefined ? undefined : tool.approvalPolicy?.(kindPolicy, lang);
  const reason =
    need.reason ??
    (policy === 'ask'
      ? (ownShown?.reason ?? t(lang, 'approval.kindAsks', { kind: tool.kind }))
      : undefined);
  // Data leaving the machine is asked about every time: "always" for a tool never covers it.
  const egress = safety.egressReason(tool, args, lang);
  const everyTime = need.everyTime === true || egress !== undefined;
  if (egress === undefined && reason === undefined) return { allow: true };
  if (!everyTime && deps.alwaysAllowed.has(name)) return { allow: true };
  if (!everyTime && deps.approvedKinds?.includes(tool.kind) === true) return { allow: true };
  const request = { tool: name, kind: tool.kind, call, reason: egress ?? reason ?? '' };
  const answer = await deps.askApproval(
    need.detail === undefined
      ? request
      : { ...request, detail: need.detail, detailKind: need.detailKind ?? 'text' },
    ctx.signal,
  );
  if (answer === 'always' && !everyTime) deps.alwaysAllowed.add(name);
  if (answer === 'no') {
    return {
      allow: false,
      reason: ctx.signal.aborted
        ? 'the turn was interrupted while waiting for approval'
        : 'the user declined this call',
    };
  }
  return { allow: true };
}

/** The tool's own approval view of a call; a throw counts as none (the run reports it). */
async function toolNeed(
  tool: Tool,
  args: readonly ToolArg[],
  ctx: ToolContext,
): Promise<ApprovalNeed> {
  try {
    const need = await tool.needsApproval?.(args, ctx);
    return typeof need === 'string' ? { reason: need } : (need ?? {});
  } catch {
    return {};
  }
}

/**
 * The per-reply call cap: a reply may ask for thousands of calls (10,000 `create` calls once
 * made 10,000 files), so only the first `maxToolCallsPerReply` run and the rest come back to
 * the model as one "not run" outcome that says why and what to do.
 */
export function capCalls(
  items: readonly CallItem[],
  max: number = DEFAULT_MAX_CALLS_PER_REPLY,
  unparsed = 0,
): { run: readonly CallItem[]; notRun?: CallOutcome } {
  const cap = callCap(max);
  const total = items.length + unparsed;
  if (total <= cap) return { run: items };
  const skipped = total - cap;
  return {
    run: items.slice(0, cap),
    notRun: {
      call: `${skipped} more call${skipped === 1 ? '' : 's'}`,
      ok: false,
      truncatedChars: 0,
      body:
        `not run: this reply asked for ${total} tool calls and at most ${cap} run per ` +
        `reply (config maxToolCallsPerReply). Calls ${cap + 1} to ${total} were not ` +
        `run. Check the results above, then ask again for what is still needed.`,
    },
  };
}

/** The cap to apply: `max` when it is a positive whole number, else the default. */
export function callCap(max: number | undefined): number {
  return max !== undefined && Number.isInteger(max) && max > 0 ? max : DEFAULT_MAX_CALLS_PER_REPLY;
}

/** Gives pending I/O (a keypress, a signal) its turn before the next step. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
