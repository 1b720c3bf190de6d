/**
 * The key table as Markdown (docs/KEYS.md), generated from the same bindings the screen
 * uses, so the documentation cannot drift from the behaviour.
 */
import { plainTextFor } from './plainText.js';
import { helpRows } from './hints.js';
import { APPROVAL_ARM_MS, type When } from './types.js';
import type { Lang } from '../../src/i18n/messages.js';

const STATE_NAMES: Record<string, string> = {
  THINKING: 'thinking',
  AWAITING_INPUT: 'waiting for you',
  PAUSED: 'paused',
  AWAITING_APPROVAL: 'a tool call waits for approval',
};

const OVERLAY_NAMES: Record<string, string> = {
  none: 'no overlay',
  help: 'help open',
  detail: 'tool details open',
  ledger: 'cycle ledger open',
  away: 'away summary open',
  sessions: 'session picker open',
};

const FOCUS_NAMES: Record<string, string> = {
  input: 'input box',
  reply: 'conversation',
  reasoning: 'reasoning',
  tools: 'tool log',
};

/** "where" a binding applies, in words. */
function describeWhen(w: When): string {
  const parts: string[] = [];
  if (w.overlay === 'any') parts.push('always');
  else if (w.overlay) parts.push(w.overlay.map((o) => OVERLAY_NAMES[o] ?? o).join(' or '));
  if (w.states) parts.push(w.states.map((s) => STATE_NAMES[s] ?? s).join(' / '));
  if (w.focus) parts.push(`focus: ${w.focus.map((f) => FOCUS_NAMES[f] ?? f).join(' / ')}`);
  if (w.input === 'empty') parts.push('input empty');
  if (w.input === 'filled') parts.push('input has text');
  if (w.input === 'words') parts.push('input has text, not a /command');
  if (w.input === 'command') parts.push('input is a /command prefix');
  if (w.input === 'exitWord') parts.push('input is exit or /exit');
  if (w.input === 'detachWord') parts.push('input is /detach');
  if (w.pasted === true) parts.push('input holds a paste placeholder');
  if (w.mention === true) parts.push('the @ path list is open');
  if (w.busy === true) parts.push('busy');
  if (w.busy === false) parts.push('idle');
  if (w.exitArmed === false) parts.push('first press');
  if (w.queueLine?.includes('closed')) parts.push('queue line closed');
  else if (w.queueLine?.includes('new')) parts.push('queue line open');
  else if (w.queueLine) parts.push('editing a queued message');
  if (w.approvalArmed === true)
    parts.push(`prompt shown ${APPROVAL_ARM_MS / 1000} s and no typing for as long`);
  return parts.length > 0 ? parts.join('; ') : 'anywhere';
}

function escapeCell(s: string): string {
  return s.replace(/\|/g, '\\|');
}

/** A Markdown table of every described binding, in precedence order. */
export function keysMarkdown(lang: Lang = 'en'): string {
  const lines = [
    '| Keys | When | What it does |',
    '|---|---|---|',
    ...helpRows().map(
      (r) =>
        `| ${r.keys
          .split(' ')
          .map((k) => `\`${escapeCell(k)}\``)
          .join(
            ' ',
          )} | ${escapeCell(describeWhen(r.when))} | ${escapeCell(plainTextFor(lang, r.description))} |`,
    ),
  ];
  return lines.join('\n');
}
